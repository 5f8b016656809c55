// What the world's tick sends from the outbox once the clock reaches it: scheduled emails, each
// checked again first (a missed-message email is not sent once its messages were read).
import type { WorldCtx } from '../context.js';
import { outboxOf } from './outbox.js';
import { stillUnread } from './missed-message-email.js';

export function releaseDueOutbox(world: WorldCtx): void {
  outboxOf(world.store).releaseDue(world.clock.nowMs(), (content, tag) => stillUnread(world, content, tag));
}
