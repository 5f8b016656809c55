// PATCH /bots/{bot_id}: a bot's name, owner, default channels, service, configuration and avatar.
// Everything is checked before anything changes; the changes then happen in the real server's
// order, each with its events. Queues of FL 474 and later get realm_bot updates only for the
// default channels and the service (the event shaper leaves the others out).
import { internalError, badRequest } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { User } from '../../store/state.js';
import { realmBotDict } from './register-state.js';
import { activeUserIds } from '../users/access.js';
import { avatarUrl } from '../users/avatar.js';
import { avatarFileOf, changeAvatar } from '../users/avatar-upload.js';
import { isAdmin } from '../users/roles.js';
import { checkFullName } from '../users/settings-values.js';
import { channelFor } from './create.js';
import { botDefaults, botToManage, botUpdate, channelName, checkBotNameAvailable } from './manage.js';
import { INTERFACE_TYPES, servicesOf } from './services.js';
import { checkServiceUrl } from './outgoing/url-policy.js';

type Params = ParamsOf<'update-bot'>;

export function updateBot(ctx: Ctx, actor: User, botId: number, p: Params): Record<string, unknown> {
  const { store } = ctx;
  let bot = botToManage(ctx, actor, botId);
  const fullName = p.full_name === undefined ? undefined : checkFullName(p.full_name);
  const rename = fullName !== undefined && fullName !== bot.full_name;
  if (rename) checkBotNameAvailable(store, fullName);
  let owner: User | undefined;
  if (p.bot_owner_id !== undefined) {
    owner = store.users.get(p.bot_owner_id);
    if (!owner) throw badRequest('Failed to change owner, no such user');
    if (!owner.is_active) throw badRequest('Failed to change owner, user is deactivated');
    if (owner.is_bot) throw badRequest("Failed to change owner, bots can't own other bots");
  }
  const pick = (name: string | undefined) =>
    name === undefined ? undefined : name === '' ? null : channelFor(ctx, actor, name);
  const sending = pick(p.default_sending_stream);
  const events = pick(p.default_events_register_stream);
  // service_interface counts (and is checked) only with service_payload_url.
  const serviceInterface = p.service_interface ?? 1;
  if (p.service_payload_url !== undefined) {
    if (!INTERFACE_TYPES.includes(serviceInterface)) throw badRequest('Invalid interface type');
    // The real server looks up the bot's service and fails when it has none (generic and incoming webhook bots).
    if (!bot.bot_service) throw internalError();
    checkServiceUrl('service_payload_url', p.service_payload_url, ctx.server.allowOutgoingHosts);
  }
  const avatar = avatarFileOf(ctx.files);

  if (rename) {
    bot = store.users.update(bot, { full_name: fullName });
    botUpdate(ctx, bot, { full_name: fullName });
    ctx.events.publish(activeUserIds(store), {
      type: 'realm_user',
      op: 'update',
      person: { user_id: bot.user_id, full_name: fullName },
    });
  }
  if (owner && owner.user_id !== bot.bot_owner_id) bot = changeOwner(ctx, bot, owner);
  if (sending !== undefined && sending !== (bot.default_sending_stream_id ?? null)) {
    bot = store.users.update(bot, { default_sending_stream_id: sending });
    botUpdate(ctx, bot, { default_sending_stream: channelName(store, sending) });
  }
  if (events !== undefined && events !== (bot.default_events_register_stream_id ?? null)) {
    bot = store.users.update(bot, { default_events_register_stream_id: events });
    botUpdate(ctx, bot, { default_events_register_stream: channelName(store, events) });
  }
  if (
    p.default_all_public_streams !== undefined &&
    p.default_all_public_streams !== (bot.default_all_public_streams ?? false)
  ) {
    bot = store.users.update(bot, { default_all_public_streams: p.default_all_public_streams });
    botUpdate(ctx, bot, { default_all_public_streams: p.default_all_public_streams });
  }
  const service = bot.bot_service;
  if (
    p.service_payload_url !== undefined &&
    service &&
    (service.base_url !== p.service_payload_url || service.interface !== serviceInterface)
  ) {
    bot = store.users.update(bot, {
      bot_service: { ...service, base_url: p.service_payload_url, interface: serviceInterface },
    });
    botUpdate(ctx, bot, { services: servicesOf(bot) });
  }
  if (p.config_data !== undefined) {
    // Keys are added or replaced, never removed; the event carries the whole configuration, even unchanged.
    bot = store.users.update(bot, { bot_config: { ...bot.bot_config, ...(p.config_data as Record<string, string>) } });
    botUpdate(ctx, bot, { services: [{ config_data: { ...bot.bot_config } }] });
  }
  if (avatar) bot = changeAvatar(ctx, bot, avatar, ctx.server);

  const ownerEmail = bot.bot_owner_id == null ? undefined : store.users.get(bot.bot_owner_id)?.email;
  return {
    full_name: bot.full_name,
    avatar_url: avatarUrl(bot),
    service_interface: serviceInterface,
    service_payload_url: p.service_payload_url ?? null,
    config_data: p.config_data ?? null,
    ...botDefaults(store, bot),
    ...(ownerEmail === undefined ? {} : { bot_owner: ownerEmail }),
  };
}

/**
 * A new owner: the previous one, unless an administrator, no longer sees the bot (`delete`); the new
 * one gets it whole (`add`); administrators learn the new owner_id (before FL 474); everyone sees
 * bot_owner_id change.
 */
function changeOwner(ctx: Ctx, bot: User, owner: User): User {
  const { store } = ctx;
  const previous = bot.bot_owner_id == null ? undefined : store.users.get(bot.bot_owner_id);
  const updated = store.users.update(bot, { bot_owner_id: owner.user_id });
  if (previous && previous.is_active && !isAdmin(previous)) {
    ctx.events.publish([previous.user_id], { type: 'realm_bot', op: 'delete', bot: { user_id: updated.user_id } });
  }
  if (!isAdmin(owner))
    ctx.events.publish([owner.user_id], { type: 'realm_bot', op: 'add', bot: realmBotDict(store, updated) });
  botUpdate(
    ctx,
    updated,
    { owner_id: owner.user_id },
    store.users.filter((u) => u.is_active && isAdmin(u)).map((u) => u.user_id),
  );
  ctx.events.publish(activeUserIds(store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: updated.user_id, bot_owner_id: owner.user_id },
  });
  return updated;
}
