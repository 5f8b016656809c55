// The one file of events/ a resource may import (test/layout/resource-pairs.test.ts): publishing
// beyond ctx.events.publish. Events whose payload changed form at a feature level (default
// channels: channel objects before FL 330, IDs from it). The description names the forms (anyOf
// members with titles); each queue takes the form of the level it registered at, and each form is
// built once per change.
import type { WorldCtx } from '../context.js';

type Event = Record<string, unknown>;

/**
 * Publishes `event` (the newest form, `newest`) to `audience`; a queue whose level gives
 * `schema.field` another form gets `build(form)`, made once for all the queues that take it.
 */
export function publishByForm(
  world: WorldCtx,
  audience: Iterable<number>,
  event: Event,
  where: { schema: string; field: string; newest: string },
  build: (form: string) => Event,
): void {
  const byForm = new Map<string, Event>();
  world.events.publish(audience, event, (_queueId, _userId, queue) => {
    const form = queue?.variantOf?.(where.schema, where.field);
    if (form === undefined || form === where.newest) return event;
    let variant = byForm.get(form);
    if (!variant) byForm.set(form, (variant = build(form)));
    return variant;
  });
}
