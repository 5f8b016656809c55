// Bot management: listing the caller's bots, creating one, changing its name, owner and default
// channels, and new API keys (a bot's, or the caller's own). Guests are refused everywhere, as by
// the real server's require_member_or_admin; a bot is managed by its owner or an administrator.
import { ApiError, badRequest, insufficientPermission } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import { Role, type User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { realmBotDict, userForClient } from '../events/state-users.js';
import { holdsSetting } from '../groups/membership.js';
import { streamByName, hasMetadataAccess } from '../channels/access.js';
import { activeUserIds } from '../users/access.js';
import { avatarUrl } from '../users/avatar.js';
import { isoSeconds, newApiKey } from '../users/create-user.js';
import { defaultUserSettings } from '../users/default-settings.js';
import { isAdmin, requireNonGuest } from '../users/roles.js';
import { checkFullName } from '../users/settings-values.js';

const INCOMING_WEBHOOK_BOT = 2;

const channelName = (store: Store, id: number | null | undefined) => (id == null ? null : store.streams.get(id)?.name ?? null);

/** The defaults every bot answer carries. */
function botDefaults(store: Store, bot: User) {
  return {
    default_sending_stream: channelName(store, bot.default_sending_stream_id),
    default_events_register_stream: channelName(store, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams ?? false,
  };
}

/** Who hears about a bot's private details (realm_bot events): administrators and its owner. */
function botAudience(store: Store, bot: User): number[] {
  return store.users.filter((u) => u.is_active && (isAdmin(u) || u.user_id === bot.bot_owner_id)).map((u) => u.user_id);
}

/** GET /bots: the active bots the caller owns, oldest first (administrators included: only their own). */
export function listBots(ctx: Ctx, actor: User): { bots: Array<Record<string, unknown>> } {
  requireNonGuest(actor);
  const bots = ctx.store.users.filter((u) => u.is_bot && u.is_active && u.bot_owner_id === actor.user_id);
  return {
    bots: bots.map((b) => ({ username: b.email, full_name: b.full_name, api_key: b.api_key, avatar_url: avatarUrl(b), ...botDefaults(ctx.store, b) })),
  };
}

/** A channel named in a bot's defaults, as the real server's access_stream_by_name finds it. */
function channelFor(ctx: Ctx, actor: User, name: string): number {
  const stream = streamByName(ctx.store, name);
  if (!stream || stream.is_archived || !hasMetadataAccess(ctx.store, actor, stream)) throw badRequest(`Invalid channel name '${name}'`);
  return stream.stream_id;
}

/** The real server's bot creation policy: administrators always; others by the two group settings. */
function checkCreationPolicy(ctx: Ctx, actor: User, botType: number): void {
  if (isAdmin(actor)) return;
  const { realm } = ctx.store;
  const writeOnly = (realm.shown_settings as Record<string, unknown> | undefined)?.can_create_write_only_bots_group;
  const holds = (value: unknown) => value !== undefined && holdsSetting(ctx.store, value as never, actor.user_id);
  if (holds(realm.can_create_bots_group)) return;
  if (botType === INCOMING_WEBHOOK_BOT && holds(writeOnly)) return;
  throw new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
}

export function createBot(ctx: Ctx, actor: User, p: ParamsOf<'create-bot'>): Record<string, unknown> {
  const { store } = ctx;
  requireNonGuest(actor);
  const short = p.short_name.trim();
  if (!short) throw badRequest('Bad name or username');
  const fullName = checkFullName(p.full_name);
  const domain = (store.realm.shown_settings as Record<string, unknown> | undefined)?.bot_domain as string | undefined ?? new URL(store.realm.url).hostname;
  const email = `${short}-bot@${domain}`;
  if (!/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(short) || short.startsWith('.') || short.includes('..')) throw badRequest('Bad name or username');
  const lower = email.toLowerCase();
  if (store.users.find((u) => u.delivery_email.toLowerCase() === lower || u.email.toLowerCase() === lower)) throw badRequest('Username already in use');
  if (store.users.find((u) => u.is_bot && u.is_active && u.full_name.toLowerCase() === fullName.toLowerCase())) throw badRequest('Name is already in use!');
  checkCreationPolicy(ctx, actor, p.bot_type);
  const sending = p.default_sending_stream === undefined ? null : channelFor(ctx, actor, p.default_sending_stream);
  const events = p.default_events_register_stream === undefined ? null : channelFor(ctx, actor, p.default_events_register_stream);

  const now = ctx.clock.now();
  const settings = defaultUserSettings(store.realm.default_language);
  const bot: User = store.users.insert({
    user_id: store.nextId('users'), email, delivery_email: email, full_name: fullName, api_key: newApiKey(), password: '',
    role: Role.member, is_active: true, is_bot: true, bot_type: p.bot_type, bot_owner_id: actor.user_id, is_system_bot: false,
    date_joined: isoSeconds(now), last_active: now, avatar_version: 1, timezone: settings.timezone, settings, settings_edited: [],
    status: { status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' }, pending_email: null,
    default_sending_stream_id: sending, default_events_register_stream_id: events, default_all_public_streams: p.default_all_public_streams ?? false,
  });
  const personFor = (viewer: User) => userForClient(viewer, bot, { clientGravatar: false });
  ctx.events.publish(activeUserIds(store), { type: 'realm_user', op: 'add', person: personFor(actor) }, (_q, viewerId) => ({
    type: 'realm_user', op: 'add', person: personFor(store.users.get(viewerId) ?? bot),
  }));
  ctx.events.publish(botAudience(store, bot), { type: 'realm_bot', op: 'add', bot: realmBotDict(store, bot) });
  return { user_id: bot.user_id, api_key: bot.api_key, avatar_url: avatarUrl(bot), ...botDefaults(store, bot) };
}

/** The real server's access_bot_by_id: a bot of the organization that the caller may manage. */
function botToManage(ctx: Ctx, actor: User, botId: number): User {
  requireNonGuest(actor);
  const bot = ctx.store.users.get(botId);
  if (!bot || !bot.is_bot || bot.is_system_bot) throw badRequest('No such bot');
  if (!isAdmin(actor) && bot.bot_owner_id !== actor.user_id) throw insufficientPermission();
  return bot;
}

function botUpdate(ctx: Ctx, bot: User, change: Record<string, unknown>, audience = botAudience(ctx.store, bot)): void {
  ctx.events.publish(audience, { type: 'realm_bot', op: 'update', bot: { user_id: bot.user_id, ...change } });
}

export function updateBot(ctx: Ctx, actor: User, botId: number, p: ParamsOf<'update-bot'>): Record<string, unknown> {
  const { store } = ctx;
  let bot = botToManage(ctx, actor, botId);
  // Everything is checked before anything changes.
  const fullName = p.full_name === undefined ? undefined : checkFullName(p.full_name);
  if (fullName !== undefined && fullName !== bot.full_name
    && store.users.find((u) => u.is_bot && u.is_active && u.user_id !== bot.user_id && u.full_name.toLowerCase() === fullName.toLowerCase())) {
    throw badRequest('Name is already in use!');
  }
  let owner: User | undefined;
  if (p.bot_owner_id !== undefined) {
    owner = store.users.get(p.bot_owner_id);
    if (!owner) throw badRequest('Failed to change owner, no such user');
    if (!owner.is_active) throw badRequest('Failed to change owner, user is deactivated');
    if (owner.is_bot) throw badRequest("Failed to change owner, bots can't own other bots");
  }
  const pick = (name: string | undefined) => (name === undefined ? undefined : name === '' ? null : channelFor(ctx, actor, name));
  const sending = pick(p.default_sending_stream);
  const events = pick(p.default_events_register_stream);

  if (fullName !== undefined && fullName !== bot.full_name) {
    bot = store.users.update(bot, { full_name: fullName });
    botUpdate(ctx, bot, { full_name: fullName });
    ctx.events.publish(activeUserIds(store), { type: 'realm_user', op: 'update', person: { user_id: bot.user_id, full_name: fullName } });
  }
  if (owner && owner.user_id !== bot.bot_owner_id) {
    const previous = bot.bot_owner_id == null ? undefined : store.users.get(bot.bot_owner_id);
    bot = store.users.update(bot, { bot_owner_id: owner.user_id });
    // The previous owner, unless an administrator, no longer sees the bot; the new one gets it whole.
    if (previous && previous.is_active && !isAdmin(previous)) {
      ctx.events.publish([previous.user_id], { type: 'realm_bot', op: 'delete', bot: { user_id: bot.user_id } });
    }
    if (!isAdmin(owner)) ctx.events.publish([owner.user_id], { type: 'realm_bot', op: 'add', bot: realmBotDict(store, bot) });
    botUpdate(ctx, bot, { owner_id: owner.user_id }, store.users.filter((u) => u.is_active && isAdmin(u)).map((u) => u.user_id));
    ctx.events.publish(activeUserIds(store), { type: 'realm_user', op: 'update', person: { user_id: bot.user_id, bot_owner_id: owner.user_id } });
  }
  if (sending !== undefined && sending !== (bot.default_sending_stream_id ?? null)) {
    bot = store.users.update(bot, { default_sending_stream_id: sending });
    botUpdate(ctx, bot, { default_sending_stream: channelName(store, sending) });
  }
  if (events !== undefined && events !== (bot.default_events_register_stream_id ?? null)) {
    bot = store.users.update(bot, { default_events_register_stream_id: events });
    botUpdate(ctx, bot, { default_events_register_stream: channelName(store, events) });
  }
  if (p.default_all_public_streams !== undefined && p.default_all_public_streams !== (bot.default_all_public_streams ?? false)) {
    bot = store.users.update(bot, { default_all_public_streams: p.default_all_public_streams });
    botUpdate(ctx, bot, { default_all_public_streams: p.default_all_public_streams });
  }
  const ownerEmail = bot.bot_owner_id == null ? undefined : store.users.get(bot.bot_owner_id)?.email;
  return {
    full_name: bot.full_name, avatar_url: avatarUrl(bot), service_interface: 1, service_payload_url: null, config_data: null,
    ...botDefaults(store, bot), ...(ownerEmail === undefined ? {} : { bot_owner: ownerEmail }),
  };
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
