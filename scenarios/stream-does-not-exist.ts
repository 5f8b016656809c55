// A channel that a client names does not exist: sends and scheduled sends to a channel fail with
// STREAM_DOES_NOT_EXIST, naming the channel the request gave (a script: the fields depend on it).
import type { Scenario } from '../src/control/scenarios/types.js';

const scenario: Scenario = {
  name: 'stream-does-not-exist',
  description: 'Sends to any channel fail with STREAM_DOES_NOT_EXIST naming the requested channel.',
  rules: [
    {
      operation: 'send-message',
      respond: (req) => {
        const to = req.params?.to;
        if (typeof to === 'number') {
          return {
            error: { code: 'STREAM_DOES_NOT_EXIST', msg: `Channel with ID '${to}' does not exist`, stream_id: to },
          };
        }
        const name = typeof to === 'string' ? to : 'unknown';
        return { error: { code: 'STREAM_DOES_NOT_EXIST', msg: `Channel '${name}' does not exist`, stream: name } };
      },
    },
    {
      operation: 'create-scheduled-message',
      respond: (req) => {
        const id = typeof req.params?.to === 'number' ? req.params.to : 0;
        return {
          error: { code: 'STREAM_DOES_NOT_EXIST', msg: `Channel with ID '${id}' does not exist`, stream_id: id },
        };
      },
    },
  ],
};

export default scenario;
