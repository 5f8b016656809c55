// What a view receives: the acting user, the sandbox's store and event hub, the clock and the
// server's settings. Views never see Express or lowdb.
import type { EventShaper } from './events/event-shape.js';
import type { Store } from '../store/store.js';
import type { Message, User } from '../store/state.js';
import type { Clock } from '../clock.js';
import type { ServerInfo } from './server-info.js';
import type { ControlOperationParams, OperationParams } from '../contract/generated/params.js';

/** How a queue was registered, for events whose form depends on it (presence). */
export interface QueueTraits {
  slimPresence: boolean;
  capabilities: Readonly<Record<string, boolean>>;
  /** The form a field takes at the queue's level (BaseCtx.variantOf); absent: the newest level's. */
  variantOf?: (schema: string, field: string) => string | undefined;
  /** Whether the server behaved the current way at the queue's level (openapi/behaviours.yaml); absent: it did. */
  supports?: (behaviour: string) => boolean;
}

/** Delivers events to the queues of the users who should see them (implemented by events/). */
export interface EventSink {
  /**
   * Sends `event` to every queue of each of `userIds` that asked for its type.
   * `perQueue` may adjust the event for one queue (e.g. add local_message_id for the sender's queue).
   */
  publish(
    userIds: Iterable<number>,
    event: Record<string, unknown>,
    perQueue?: (queueId: string, userId: number, queue?: QueueTraits) => Record<string, unknown> | null,
  ): void;
  /** Whether any queue exists: without one, an event costly to build need not be built. */
  readonly listening?: boolean;
  /** Whether the user has a queue that takes message events (absent: a sink that cannot tell, as if none). */
  receivesMessages?(userId: number): boolean;
}

/**
 * The world an action changes: its state, the queues that hear of changes and its clock. Actions
 * take `(world, actor, input)`, the input object standing for keyword arguments; a view passes its
 * context, time-driven work (deliveries) its World.
 */
export interface WorldCtx {
  store: Store;
  events: EventSink;
  clock: Clock;
  /** The world's service bots (outgoing webhooks, embedded bots), told of each message sent; absent: none are called. */
  serviceBots?: ServiceBotSink;
}

/** Who a sent message mentions, as the renderer found it (silent mentions and code excluded). */
export interface SentMentions {
  userIds: ReadonlySet<number>;
  groupIds: ReadonlySet<number>;
}

/** Hands a sent message to the service bots it concerns (implemented by bots/outgoing/, which queues the calls). */
export interface ServiceBotSink {
  /**
   * `dict`: the message as its `message` event carries it (messageDict), when the send made one:
   * events never change once published, so the bots' events may share it.
   */
  messageSent(
    message: Message,
    mentions: SentMentions,
    recipientIds: readonly number[],
    dict?: Record<string, unknown>,
  ): void;
}

/** A file part of a multipart request, bytes and all (only POST /user_uploads uses one). */
export interface FilePart {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/** A view's answer that is a file's bytes, not JSON: the respond stage writes it as it is. */
export class FileResult {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** What every view receives besides the caller. */
interface BaseCtx extends WorldCtx {
  /** The request's file parts, in order (none unless the body was multipart with files). */
  files: readonly FilePart[];
  server: ServerInfo;
  /** Whether the server, at this request's level, behaves the current way (openapi/behaviours.yaml). */
  supports(behaviour: string): boolean;
  /** Whether a component schema's field exists at this request's level (x-feature-level / x-removed-at). */
  hasField(schema: string, field: string): boolean;
  /** The title of the form (anyOf / oneOf member) a component schema's field takes at this request's level. */
  variantOf(schema: string, field: string): string | undefined;
  /** Shapes an event to this request's level, for a queue registered now. */
  eventShaper: EventShaper;
  /** The User-Agent's client name, for heuristics such as read_by_sender. */
  clientName: string;
  /** Name of the world (sandbox) serving the request. */
  sandbox: string;
}

/** The context of an operation that requires a caller: the authenticated user acts. */
export interface Ctx extends BaseCtx {
  actor: User;
}

/** The context of an operation open to anyone (server settings, logging in, the control API): nobody acts. */
export interface OpenCtx extends BaseCtx {
  actor: null;
  /**
   * The request's Authorization header, for the operations that check credentials other than a
   * user's themselves (the push bouncer's remote servers).
   */
  authorization?: string;
}

/** How a client writes the empty topic: "" (empty_topic_name capability) or the organization's display name for it. */
export type TopicShown = (topic: string) => string;

export type ViewResult = Record<string, unknown> | FileResult | void;
type AllParams = OperationParams & ControlOperationParams;
/** The decoded parameters of an operation, typed from the description (src/contract/generated/params.ts). */
export type ParamsOf<Id extends keyof AllParams> = AllParams[Id];
export type View<P = Record<string, any>> = (ctx: Ctx, params: P) => ViewResult | Promise<ViewResult>;
type OpenView<P> = (ctx: OpenCtx, params: P) => ViewResult | Promise<ViewResult>;
/** Views of operations that require a caller; each receives its operation's parameters. */
export type ViewTable = { [Id in keyof OperationParams]?: View<OperationParams[Id]> };
/** Views of operations open to anyone. */
export type OpenViewTable = { [Id in keyof AllParams]?: OpenView<AllParams[Id]> };

/** Every view by operationId: those of operations that require a caller, and those open to anyone. */
export interface Views {
  authenticated: ViewTable;
  open: OpenViewTable;
}
