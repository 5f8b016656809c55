// GET /users/{user_id_or_email}/presence: one active person's presence in the legacy form without
// client details, `aggregated` turned offline once its time is past the offline threshold.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import { userByEmail } from '../users/access.js';
import { SERVER_PRESENCE } from './timings.js';
import { legacyClientPresence } from './format.js';

export function userPresence(ctx: Ctx, idOrEmail: string): { presence: Record<string, unknown> } {
  const target = /^\d+$/.test(idOrEmail) ? ctx.store.users.get(Number(idOrEmail)) : userByEmail(ctx.store, idOrEmail);
  if (!target || !target.is_active) throw badRequest('No such user');
  if (target.is_bot) throw badRequest('Presence is not supported for bot users.');
  const p: User['presence'] = target.presence;
  if (!p) throw badRequest(`No presence data for ${idOrEmail}`);
  const { status, timestamp } = legacyClientPresence(p);
  const offline = ctx.clock.now() - timestamp > SERVER_PRESENCE.offlineThresholdSeconds;
  return {
    presence: { website: { status, timestamp }, aggregated: { status: offline ? 'offline' : status, timestamp } },
  };
}
