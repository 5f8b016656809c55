// The bots' sections of the registration state, and one bot as `realm_bot` events carry it:
// `realm_bot` (the bots the client's user may administer) and the integrations the server
// offers (`realm_embedded_bots`, `realm_incoming_webhook_bots`).
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { avatarUrl } from '../users/avatar.js';
import { isAdmin } from '../users/roles.js';
import { servicesOf } from './services.js';
import { EMBEDDED_BOTS, incomingWebhookBots } from './integrations.js';

/** One bot as `realm_bots` and `realm_bot` `add` events show it (fields of every level: shaped to the request's and the queue's). */
export function realmBotDict(store: Store, b: User): Record<string, unknown> {
  const channel = (id: number | null | undefined) => (id == null ? null : (store.streams.get(id)?.name ?? null));
  return {
    user_id: b.user_id,
    email: b.email,
    full_name: b.full_name,
    bot_type: b.bot_type,
    is_active: b.is_active,
    api_key: b.api_key,
    // The real server gives bots' avatars in full whatever client_gravatar says.
    avatar_url: avatarUrl(b),
    default_sending_stream: channel(b.default_sending_stream_id),
    default_events_register_stream: channel(b.default_events_register_stream_id),
    default_all_public_streams: b.default_all_public_streams ?? false,
    owner_id: b.bot_owner_id,
    services: servicesOf(b),
  };
}

/** `realm_bot`: the bots the client's user owns (all bots, for administrators). */
export function realmBotState(store: Store, actor: User): Record<string, unknown> {
  const bots = store.users.filter(
    (u) => u.is_bot && !u.is_system_bot && (isAdmin(actor) || u.bot_owner_id === actor.user_id),
  );
  return { realm_bots: bots.map((b) => realmBotDict(store, b)) };
}

export const embeddedBotState = () => ({ realm_embedded_bots: structuredClone(EMBEDDED_BOTS) });

/** `realm_incoming_webhook_bots`; `urlOptions`: the level has behaviour `webhook_url_options` (403). */
export const incomingWebhookBotState = (urlOptions: boolean) => ({
  realm_incoming_webhook_bots: incomingWebhookBots(urlOptions),
});
