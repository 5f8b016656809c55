// The organization as a whole: trying the welcome bot's custom message, and deactivating the
// organization (after which authentication refuses every request: src/http/auth.ts).
import { ApiError, badRequest } from '../../errors.js';
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { activeUserIds } from '../users/access.js';
import { isOwner, requireAdmin } from '../users/roles.js';
import { customWelcomeContent, sendWelcomeBotMessage } from './welcome-bot.js';
import { MIN_DEACTIVATED_REALM_DELETION_DAYS } from './server-settings-state.js';

/**
 * POST /realm/test_welcome_bot_custom_message (FL 416): the welcome bot's custom message, as a new
 * account would get it after its greeting, sent alone to the caller.
 */
export function testWelcomeBotMessage(world: WorldCtx, actor: User, text: string): { message_id: number } {
  requireAdmin(actor);
  if (text.length === 0) throw badRequest('Message must not be empty');
  return { message_id: sendWelcomeBotMessage(world, actor, customWelcomeContent(text)).message.id };
}

/** POST /realm/deactivate: owners only; everyone is told (realm deactivated) before being shut out. */
export function deactivateRealm(world: WorldCtx, actor: User, deletionDelayDays: number | null | undefined): void {
  if (!isOwner(actor)) throw new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  if (deletionDelayDays != null && deletionDelayDays < MIN_DEACTIVATED_REALM_DELETION_DAYS) {
    throw badRequest(`Data deletion time must be at least ${MIN_DEACTIVATED_REALM_DELETION_DAYS} days in the future.`);
  }
  const { store } = world;
  world.events.publish(activeUserIds(store), { type: 'realm', op: 'deactivated', realm_id: store.realm.id });
  store.updateRealm({ deactivated: true });
}

/** Back to active (the control API's POST /__mock/realm/reactivate; a reset does it too). */
export function reactivateRealm(world: WorldCtx): void {
  if (world.store.realm.deactivated) world.store.updateRealm({ deactivated: false });
}
