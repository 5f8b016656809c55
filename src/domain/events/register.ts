// POST /register: a new queue for the client's user, and the state it starts from. The queue is
// created first so that nothing that happens after the state was read can be missed.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { isGuest } from '../users/roles.js';
import { EventHub } from './hub.js';
import { buildMessageFilter } from './narrow-filter.js';
import { initialState } from './initial-state.js';
import { organizationClientGravatar, organizationDisplayEmail } from '../users/email-visibility.js';

/** The real server's default: a queue nobody polls for 10 minutes is garbage-collected. */
const DEFAULT_IDLE_QUEUE_TIMEOUT_SECS = 600;
/** The real server's cap on idle_queue_timeout (a week, MAX_QUEUE_TIMEOUT_SECS): larger asks are lowered to it. */
const MAX_IDLE_QUEUE_TIMEOUT_SECS = 7 * 24 * 60 * 60;

export interface RegisterInput {
  apply_markdown: boolean;
  client_gravatar: boolean;
  all_public_streams: boolean;
  include_subscribers: boolean | 'partial';
  slim_presence?: boolean;
  presence_history_limit_days?: number;
  event_types?: string[] | null;
  fetch_event_types?: string[] | null;
  narrow: unknown[];
  client_capabilities?: Record<string, boolean>;
  idle_queue_timeout?: number;
}

/** The hub behind ctx.events (views need more of it than publishing). */
export function hubOf(ctx: Ctx): EventHub {
  if (ctx.events instanceof EventHub) return ctx.events;
  // A programming error (a context without the world's hub), not an answer the API gives.
  throw new Error('Event queues are not available: the context has no event hub');
}

/**
 * A list of event types as a set, one set shared by every queue that asked for the same list:
 * each queue lives until collected (a thousand of a user's at a time), and clients ask for the
 * same few lists, so one set each was memory kept for nothing. Bounded: emptied when full.
 */
const typeSets = new Map<string, ReadonlySet<string>>();
const MAX_TYPE_SETS = 256;

function typeSet(list: string[] | null | undefined): ReadonlySet<string> | null {
  if (list === null || list === undefined) return null;
  const key = JSON.stringify(list);
  let set = typeSets.get(key);
  if (!set) {
    if (typeSets.size >= MAX_TYPE_SETS) typeSets.clear();
    typeSets.set(key, (set = new Set(list)));
  }
  return set;
}

/** The capabilities of a client that sent none (most): shared, as it is only read. */
const NO_CAPABILITIES: Readonly<Record<string, boolean>> = Object.freeze({});

export function registerQueue(ctx: Ctx, input: RegisterInput): Record<string, unknown> {
  if (input.all_public_streams && isGuest(ctx.actor)) throw badRequest('User not authorized for this query');
  // Below feature level 163 a sender's API email is the one the organization's setting shows.
  const messageFilter = ctx.supports('email_visibility_per_user')
    ? buildMessageFilter(input.narrow)
    : buildMessageFilter(input.narrow, (m) => {
        const sender = ctx.store.users.get(m.sender_id as number);
        return sender ? organizationDisplayEmail(ctx.store.realm, sender) : m.sender_email;
      });
  const eventTypes = typeSet(input.event_types);
  const fetchEventTypes = input.fetch_event_types === undefined ? eventTypes : typeSet(input.fetch_event_types);
  // A capability newer than the level is one the server does not know yet: ignored.
  const known = (name: string) => {
    try {
      return ctx.hasField('ClientCapabilities', name);
    } catch {
      return true;
    }
  };
  const capabilities = input.client_capabilities
    ? Object.fromEntries(Object.entries(input.client_capabilities).filter(([name]) => known(name)))
    : NO_CAPABILITIES;
  // As on the real server, 0 (or nothing) means the default.
  const idleTimeoutSecs = Math.min(
    input.idle_queue_timeout || DEFAULT_IDLE_QUEUE_TIMEOUT_SECS,
    MAX_IDLE_QUEUE_TIMEOUT_SECS,
  );
  // Below feature level 163 the server turned client_gravatar off, for the queue and the state
  // alike, while the organization's email_address_visibility hid addresses.
  const clientGravatar = ctx.supports('email_visibility_per_user')
    ? input.client_gravatar
    : organizationClientGravatar(ctx.store.realm, input.client_gravatar);
  const queue = hubOf(ctx).register({
    userId: ctx.actor.user_id,
    eventTypes,
    messageFilter,
    allPublicStreams: input.all_public_streams,
    capabilities,
    emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
    applyMarkdown: input.apply_markdown,
    slimPresence: !!input.slim_presence,
    clientGravatar,
    idleTimeoutSecs,
    shape: ctx.eventShaper,
    variantOf: ctx.variantOf,
    supports: ctx.supports,
    now: ctx.clock.now(),
  });
  const state = initialState(ctx, {
    fetchEventTypes,
    capabilities,
    clientGravatar,
    includeSubscribers: input.include_subscribers,
    slimPresence: input.slim_presence,
    presenceHistoryLimitDays: input.presence_history_limit_days,
  });
  return { queue_id: queue.id, last_event_id: -1, idle_queue_timeout_secs: idleTimeoutSecs, ...state };
}
