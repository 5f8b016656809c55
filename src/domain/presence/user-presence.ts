// GET /users/{user_id_or_email}/presence: one active person's presence. The legacy form (one
// `website` entry and `aggregated`, turned offline once its time is past the offline threshold)
// before 487; the modern times from 487; both from 497, when the legacy entries came back.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import { userByApiEmail } from '../users/email-visibility.js';
import { SERVER_PRESENCE } from './timings.js';
import { legacyClientPresence, modernPresence } from './format.js';

export function userPresence(
  ctx: Ctx,
  idOrEmail: string,
): { presence: Record<string, unknown>; server_timestamp: number } {
  // Below feature level 163, the API email the organization's email_address_visibility gives.
  const target = /^\d+$/.test(idOrEmail)
    ? ctx.store.users.get(Number(idOrEmail))
    : userByApiEmail(ctx.store, idOrEmail, !ctx.supports('email_visibility_per_user'));
  if (!target || !target.is_active) throw badRequest('No such user');
  if (target.is_bot) throw badRequest('Presence is not supported for bot users.');
  const p: User['presence'] = target.presence;
  if (!p) throw badRequest(`No presence data for ${idOrEmail}`);
  const { status, timestamp } = legacyClientPresence(p);
  const offline = ctx.clock.now() - timestamp > SERVER_PRESENCE.offlineThresholdSeconds;
  const legacy = { website: { status, timestamp }, aggregated: { status: offline ? 'offline' : status, timestamp } };
  // The modern times are gated by their x-feature-level; only the legacy entries' gap needs a rule.
  const legacyShown = !ctx.supports('user_presence_modern_times') || ctx.supports('user_presence_legacy_restored');
  return {
    presence: { ...modernPresence(p), ...(legacyShown ? legacy : {}) },
    // Shaped away below 497, where the answer had no server_timestamp.
    server_timestamp: ctx.clock.nowMs() / 1000,
  };
}
