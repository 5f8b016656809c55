// POST /bots: a bot owned by the caller, of one of the four types, with an optional avatar. The
// real server's checks, in its order, before anything changes: names, the embedded bot's name,
// who may create which type (two group settings), the avatar file, default channels, and an
// incoming webhook's or embedded bot's configuration.
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import { Role, type BotService, type User } from '../../store/state.js';
import { realmBotDict } from './register-state.js';
import { EMBEDDED_BOTS, INCOMING_WEBHOOK_INTEGRATIONS } from './integrations.js';
import { holdsSetting } from '../group-settings/membership.js';
import { streamByName, hasMetadataAccess } from '../channels/access.js';
import { avatarUrl } from '../users/avatar.js';
import { avatarFileOf, storeAvatar } from '../users/avatar-upload.js';
import { emailInUse, insertAccount, isoSeconds, newApiKey } from '../users/create-user.js';
import { realmDefaultSettings } from '../users/default-settings.js';
import { EmailVisibility, fakeEmailDomain } from '../users/email-visibility.js';
import { requireNonGuest } from '../users/roles.js';
import { checkFullName } from '../users/settings-values.js';
import { botAudience } from '../users/bot-audience.js';
import { botDefaults, checkBotNameAvailable } from './manage.js';
import { BotType } from './services.js';
import { checkServiceUrl } from './outgoing/url-policy.js';

/** A channel named in a bot's defaults, as the real server's access_stream_by_name finds it. */
export function channelFor(ctx: Ctx, actor: User, name: string): number {
  const stream = streamByName(ctx.store, name);
  if (!stream || stream.is_archived || !hasMetadataAccess(ctx.store, actor, stream))
    throw badRequest(`Invalid channel name '${name}'`);
  return stream.stream_id;
}

/**
 * The real server's check_can_create_bot: members of can_create_bots_group may create any bot,
 * members of can_create_write_only_bots_group incoming webhook bots. (Its later check_valid_bot_type
 * then refuses only types that do not exist, which the description's enum refuses already.)
 */
function checkCanCreateBot(ctx: Ctx, actor: User, botType: number): void {
  const { realm } = ctx.store;
  const writeOnly = (realm.shown_settings as Record<string, unknown> | undefined)?.can_create_write_only_bots_group;
  const holds = (value: unknown) => value !== undefined && holdsSetting(ctx.store, value as never, actor.user_id);
  if (holds(realm.can_create_bots_group)) return;
  if (botType === BotType.incomingWebhook && holds(writeOnly)) return;
  throw insufficientPermission();
}

/** The real server's check_valid_bot_config, for the integrations and embedded bots the mock lists. */
function checkBotConfig(botType: number, serviceName: string): void {
  if (botType !== BotType.incomingWebhook) return; // Embedded bots' own checks need their services (GIPHY...): not made.
  if (!INCOMING_WEBHOOK_INTEGRATIONS.some((i) => i.name === serviceName))
    throw badRequest(`Invalid integration '${serviceName}'.`);
  // The real server also checks config_data against the integration's config_options (GitHub's
  // two keys from 318 to 402, none from 403): not made, so any config_data is taken.
}

export function createBot(ctx: Ctx, actor: User, p: ParamsOf<'create-bot'>): Record<string, unknown> {
  const { store } = ctx;
  requireNonGuest(actor);
  const short = p.short_name.trim();
  if (!short) throw badRequest('Bad name or username');
  // The service is named by service_name, or by the short name (incoming webhooks: only by service_name).
  const serviceName = p.bot_type === BotType.incomingWebhook ? p.service_name : p.service_name || short;
  const fullName = checkFullName(p.full_name);
  const email = `${short}-bot@${fakeEmailDomain(store.realm)}`;
  if (!/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(short) || short.startsWith('.') || short.includes('..'))
    throw badRequest('Bad name or username');
  // EMBEDDED_BOTS_ENABLED: on in development, off in production (--production).
  if (p.bot_type === BotType.embedded && !ctx.server.rules.embeddedBots)
    throw badRequest('Embedded bots are not enabled.');
  if (p.bot_type === BotType.embedded && !EMBEDDED_BOTS.some((b) => b.name === serviceName))
    throw badRequest('Invalid embedded bot name.');
  if (emailInUse(store, email)) throw badRequest('Username already in use');
  checkBotNameAvailable(store, fullName);
  checkCanCreateBot(ctx, actor, p.bot_type);
  const avatar = avatarFileOf(ctx.files);
  const sending = p.default_sending_stream === undefined ? null : channelFor(ctx, actor, p.default_sending_stream);
  const events =
    p.default_events_register_stream === undefined ? null : channelFor(ctx, actor, p.default_events_register_stream);
  const config = (p.config_data ?? {}) as Record<string, string>;
  if ((p.bot_type === BotType.incomingWebhook || p.bot_type === BotType.embedded) && serviceName)
    checkBotConfig(p.bot_type, serviceName);
  // The mock's own rule (safe by default): it calls only loopback addresses and the hosts it was told of.
  if (p.bot_type === BotType.outgoingWebhook)
    checkServiceUrl('payload_url', p.payload_url ?? '', ctx.server.allowOutgoingHosts);

  const now = ctx.clock.now();
  // A bot shows its address to everyone whatever the organization's default for new users.
  const settings = { ...realmDefaultSettings(store.realm), email_address_visibility: EmailVisibility.everyone };
  const userId = store.nextId('users');
  const service: BotService | undefined =
    p.bot_type === BotType.outgoingWebhook || p.bot_type === BotType.embedded
      ? { name: serviceName!, base_url: p.payload_url ?? '', interface: p.interface_type, token: newApiKey() }
      : undefined;
  const botConfig =
    p.bot_type === BotType.incomingWebhook
      ? { ...(serviceName ? { integration_id: serviceName } : {}), ...config }
      : p.bot_type === BotType.embedded
        ? { ...config }
        : undefined;
  const bot = insertAccount(ctx, {
    user_id: userId,
    email,
    delivery_email: email,
    full_name: fullName,
    api_key: newApiKey(),
    password: '',
    role: Role.member,
    is_active: true,
    is_bot: true,
    bot_type: p.bot_type,
    bot_owner_id: actor.user_id,
    is_system_bot: false,
    date_joined: isoSeconds(now),
    last_active: now,
    avatar_version: 1,
    timezone: settings.timezone,
    settings,
    settings_edited: [],
    status: { status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' },
    pending_email: null,
    default_sending_stream_id: sending,
    default_events_register_stream_id: events,
    default_all_public_streams: p.default_all_public_streams ?? false,
    ...(avatar ? { avatar_path: storeAvatar(store, userId, null, avatar, ctx.server) } : {}),
    ...(service ? { bot_service: service } : {}),
    ...(botConfig && Object.keys(botConfig).length ? { bot_config: botConfig } : {}),
  });
  ctx.events.publish(botAudience(store, bot), { type: 'realm_bot', op: 'add', bot: realmBotDict(store, bot) });
  return { user_id: bot.user_id, api_key: bot.api_key, avatar_url: avatarUrl(bot), ...botDefaults(store, bot) };
}
