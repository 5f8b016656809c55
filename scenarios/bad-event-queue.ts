// The client's event queue has expired on the server: polling it or deleting it fails with
// BAD_EVENT_QUEUE_ID naming the queue the request gave, as after a server restart.
import type { Scenario } from '../src/control/scenarios/types.js';

const badQueue = (queueId: unknown) => {
  const id = typeof queueId === 'string' ? queueId : '';
  return { error: { code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${id}`, queue_id: id } };
};

const scenario: Scenario = {
  name: 'bad-event-queue',
  description: "The client's event queue expired: GET and DELETE /events fail with BAD_EVENT_QUEUE_ID.",
  rules: [
    { operation: 'get-events', respond: (req) => badQueue(req.params?.queue_id) },
    { operation: 'delete-queue', respond: (req) => badQueue(req.params?.queue_id) },
  ],
};

export default scenario;
