// Bot management: listing the caller's bots, who may manage a bot, and new API keys (a bot's, or
// the caller's own). Creating and changing bots are create.ts and update.ts. Guests are refused
// everywhere, as by the real server's require_member_or_admin; a bot is managed by its owner or an
// administrator.
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { avatarUrl } from '../users/avatar.js';
import { newApiKey } from '../users/create-user.js';
import { isAdmin, requireNonGuest } from '../users/roles.js';
import { botAudience } from '../users/bot-audience.js';

export const channelName = (store: Store, id: number | null | undefined) =>
  id == null ? null : (store.streams.get(id)?.name ?? null);

/** The defaults every bot answer carries. */
export function botDefaults(store: Store, bot: User) {
  return {
    default_sending_stream: channelName(store, bot.default_sending_stream_id),
    default_events_register_stream: channelName(store, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams ?? false,
  };
}

/** A `realm_bot` `update` with the changed fields, to the bot's owner and administrators (or `audience`). */
export function botUpdate(
  ctx: Ctx,
  bot: User,
  change: Record<string, unknown>,
  audience = botAudience(ctx.store, bot),
): void {
  ctx.events.publish(audience, { type: 'realm_bot', op: 'update', bot: { user_id: bot.user_id, ...change } });
}

/** GET /bots: the active bots the caller owns, oldest first (administrators included: only their own). */
export function listBots(ctx: Ctx, actor: User): { bots: Array<Record<string, unknown>> } {
  requireNonGuest(actor);
  const bots = ctx.store.users.filter((u) => u.is_bot && u.is_active && u.bot_owner_id === actor.user_id);
  return {
    bots: bots.map((b) => ({
      username: b.email,
      full_name: b.full_name,
      api_key: b.api_key,
      avatar_url: avatarUrl(b),
      ...botDefaults(ctx.store, b),
    })),
  };
}

/** The real server's access_bot_by_id: a bot of the organization that the caller may manage. */
export function botToManage(ctx: Ctx, actor: User, botId: number): User {
  requireNonGuest(actor);
  const bot = ctx.store.users.get(botId);
  if (!bot || !bot.is_bot || bot.is_system_bot) throw badRequest('No such bot');
  if (!isAdmin(actor) && bot.bot_owner_id !== actor.user_id) throw insufficientPermission();
  return bot;
}

/** The real server's check_bot_name_available: no active user or bot may have exactly this name. */
export function checkBotNameAvailable(store: Store, fullName: string): void {
  if (store.users.find((u) => u.is_active && u.full_name === fullName)) throw badRequest('Name is already in use.');
}

/** POST /bots/{bot_id}/api_key/regenerate. */
export function regenerateBotApiKey(ctx: Ctx, actor: User, botId: number): { api_key: string } {
  const bot = ctx.store.users.update(botToManage(ctx, actor, botId), { api_key: newApiKey() });
  botUpdate(ctx, bot, { api_key: bot.api_key });
  return { api_key: bot.api_key };
}

/** POST /users/me/api_key/regenerate: people only (the real server's human_users_only). */
export function regenerateOwnApiKey(ctx: Ctx, actor: User): { api_key: string } {
  if (actor.is_bot) throw badRequest('This endpoint does not accept bot requests.');
  const user = ctx.store.users.update(actor, { api_key: newApiKey() });
  return { api_key: user.api_key };
}
