// The store: the only code that holds the state and changes it. Domain code reads through the
// collections and changes rows through their insert/update/remove; the store tells its persister
// that something changed (it decides when to write; see persist.ts).
import { Collection, type RowChange } from './collection.js';
import { DerivedValues } from './derived.js';
import { stateFileHash } from './fixture.js';
import type {
  Attachment,
  BotStorageEntry,
  Invite,
  ChannelFolder,
  Draft,
  Linkifier,
  Message,
  NavigationView,
  PushDevice,
  RemotePushDevice,
  RealmEmoji,
  Reminder,
  SavedSnippet,
  ScheduledMessage,
  SentPushNotification,
  State,
  Stream,
  Subscription,
  User,
  UserAvatar,
  UserGroup,
  UserTopic,
} from './state.js';

export type CounterName =
  | 'users'
  | 'streams'
  | 'user_groups'
  | 'channel_folders'
  | 'linkifiers'
  | 'realm_emoji'
  | 'messages'
  | 'scheduled_messages'
  | 'reminders'
  | 'saved_snippets'
  | 'drafts'
  | 'push_devices'
  | 'sent_push_notifications'
  | 'attachments';

export type CollectionName = Exclude<keyof State, 'realm'>;

/** One change to the state, as the persister logs it. `load` replaces everything. */
export type Change = (RowChange & { c: CollectionName }) | { t: 'realm'; patch: object } | { t: 'load' };

/** Reserved IDs ahead of use, per counter: every ID handed out is below its counter's limit. */
export type IdLimits = Partial<Record<CounterName, number>>;

/** How many IDs one reservation covers at first: one small file write per block, not per ID. */
const ID_BLOCK = 100;
/**
 * A block used up sooner than this after its reservation makes the next one twice as large (up
 * to ID_BLOCK_MAX), so that a busy counter writes the file about once a second, not every 100
 * IDs: the write is synchronous (the limit must be on disk before the ID is answered) and, on a
 * disk busy with the snapshot or other writers, stalled every request behind it for milliseconds.
 * A counter used at a slower pace goes back to ID_BLOCK. A crash skips at most one block of IDs.
 */
const ID_BLOCK_FAST_MS = 1000;
const ID_BLOCK_MAX = 100 * 64;

export const subscriptionKey = (userId: number, streamId: number) => `${userId}:${streamId}`;
/** Bot storage keys are compared exactly (case included), as on the real server. */
export const navigationViewKey = (userId: number, fragment: string) => `${userId}:${fragment}`;
export const remotePushDeviceKey = (serverUuid: string, realmUuid: string, tokenId: string) =>
  `${serverUuid}:${realmUuid}:${tokenId}`;
export const botStorageKey = (userId: number, key: string) => `${userId}:${key}`;
/** A channel topic, for store.messages.group('topic', ...); topics compare case-insensitively. */
export const topicKey = (streamId: number, topic: string) => `${streamId}:${topic.toLowerCase()}`;
/** The users a message has flags for: those who received it (the real server's UserMessage rows). */
const receivedBy = (m: Message): number[] => Object.keys(m.flags).map(Number);
/** The users whose flags on a message include `flag` (or, with `has` false, lack it). */
const flaggedBy =
  (flag: string, has: boolean) =>
  (m: Message): number[] => {
    const ids: number[] = [];
    for (const key in m.flags) if (m.flags[key].includes(flag) === has) ids.push(Number(key));
    return ids;
  };
/** A channel message's channel, and its topic within it (keys of the inChannel and inTopic indexes). */
const inChannel = (m: Message): number[] => (m.stream_id === null ? [] : [m.stream_id]);
const inTopic = (m: Message): string[] =>
  m.type === 'stream' && m.stream_id !== null ? [topicKey(m.stream_id, m.topic)] : [];
const conversation = (m: Message): string[] => (m.type === 'private' ? [m.recipient_ids.join(',')] : []);
const sentBy = (m: Message): number[] => [m.sender_id];
/** The messages of a channel, in ID order (a live view: do not change it). */
export const channelMessages = (store: Store, streamId: number): readonly Message[] =>
  store.messages.multiGroup('inChannel', streamId);
/** The messages of a channel's topic (compared without case), in ID order (a live view). */
export const topicMessagesInOrder = (store: Store, streamId: number, topic: string): readonly Message[] =>
  store.messages.multiGroup('inTopic', topicKey(streamId, topic));
/** Each topic of a channel as its messages in ID order (live views), found among every topic's key. */
export function channelTopics(store: Store, streamId: number): Array<readonly Message[]> {
  const prefix = `${streamId}:`;
  const topics: Array<readonly Message[]> = [];
  for (const key of store.messages.multiGroupKeys('inTopic'))
    if ((key as string).startsWith(prefix)) topics.push(store.messages.multiGroup('inTopic', key));
  return topics;
}
/** The messages `userId` sent, in ID order (a live view). */
export const sentMessages = (store: Store, userId: number): readonly Message[] =>
  store.messages.multiGroup('sentBy', userId);
/** A conversation's direct messages, by its participants' IDs sorted and joined with commas, in ID order (a live view). */
export const conversationMessages = (store: Store, participants: string): readonly Message[] =>
  store.messages.multiGroup('conversation', participants);
/** The messages `userId` received, in ID order (a live view: do not change it). */
export const receivedMessages = (store: Store, userId: number): readonly Message[] =>
  store.messages.multiGroup('receivedBy', userId);
/** Those of them `userId` has not read, in ID order (a live view). */
export const unreadMessages = (store: Store, userId: number): readonly Message[] =>
  store.messages.multiGroup('unreadBy', userId);
/** Those of them `userId` starred, in ID order (a live view). */
export const starredMessages = (store: Store, userId: number): readonly Message[] =>
  store.messages.multiGroup('starredBy', userId);
/** Topics compare case-insensitively, as on the real server. */
export const userTopicKey = (userId: number, streamId: number, topic: string) =>
  `${userId}:${streamId}:${topic.toLowerCase()}`;

export class Store {
  state!: State;
  users!: Collection<User>;
  streams!: Collection<Stream>;
  subscriptions!: Collection<Subscription>;
  formerSubscriptions!: Collection<Subscription>;
  userGroups!: Collection<UserGroup>;
  channelFolders!: Collection<ChannelFolder>;
  linkifiers!: Collection<Linkifier>;
  realmEmoji!: Collection<RealmEmoji>;
  messages!: Collection<Message>;
  userTopics!: Collection<UserTopic>;
  scheduledMessages!: Collection<ScheduledMessage>;
  reminders!: Collection<Reminder>;
  savedSnippets!: Collection<SavedSnippet>;
  navigationViews!: Collection<NavigationView>;
  remotePushDevices!: Collection<RemotePushDevice>;
  drafts!: Collection<Draft>;
  attachments!: Collection<Attachment>;
  pushDevices!: Collection<PushDevice>;
  sentPushNotifications!: Collection<SentPushNotification>;
  botStorage!: Collection<BotStorageEntry>;
  userAvatars!: Collection<UserAvatar>;
  invites!: Collection<Invite>;
  private counters = new Map<CounterName, number>();
  /**
   * Kept only for a persisted world (see reserveIds): the IDs below each limit may be handed out
   * without asking; the next one first reserves a new block, which the persister writes at once.
   */
  private reserved = new Map<CounterName, number>();
  /** Each counter's last reservation: its size and when it was made (see ID_BLOCK_FAST_MS). */
  private lastBlock = new Map<CounterName, { size: number; atMs: number }>();
  private reserve: ((name: CounterName, limit: number) => void) | null = null;
  /** Real time in ms, for the pace of reservations only (never for anything a client sees). */
  private reserveNowMs: () => number = () => performance.now();
  /** Limits read back at start: IDs handed out before a crash, which no row may show any more. */
  private floors: IdLimits = {};
  /** Values derived from this state and kept with it (see derived.ts). */
  readonly derived = new DerivedValues();
  /** Bumped on every change; the persister and the inspector watch it. */
  version = 0;
  /** Changes per part of the state ('realm' or a collection), for caches that depend on a few. */
  private partVersions = new Map<string, number>();
  private listeners: Array<(change: Change) => void> = [];
  /** The file the last load read (its stateFileHash) and the part versions just after that load. */
  private loaded: { fileHash: string | null; versions: Map<string, number> } = { fileHash: null, versions: new Map() };
  private byName = new Map<CollectionName, Collection<any>>();

  constructor(state: State) {
    this.load(state);
  }

  /** Replaces the whole state (reset, import) and rebuilds every index. */
  load(state: State): void {
    this.state = state;
    // Messages are kept in ID order (a new one gets the next ID and goes at the end): reading in
    // that order is what finding anchors and the newest message rely on. A state written by hand
    // may list them otherwise.
    const messages = state.messages;
    for (let i = 1; i < messages.length; i++) {
      if (messages[i - 1].id > messages[i].id) {
        messages.sort((a, b) => a.id - b.id);
        break;
      }
    }
    // A collection makes each change for this call and keeps no reference to it: the change is
    // named in place rather than copied (a copy per change was a tenth of a send's action).
    const changed = (c: CollectionName) => (change: RowChange) => {
      const named = change as RowChange & { c: CollectionName };
      named.c = c;
      this.markChanged(named);
    };
    this.users = new Collection(
      state.users,
      {
        key: (u) => u.user_id,
        unique: { email: (u) => u.email.toLowerCase() },
        // Real addresses (any case): what logins, authentication and "address in use" look up.
        groups: { deliveryEmail: (u) => u.delivery_email.toLowerCase() },
      },
      changed('users'),
    );
    this.streams = new Collection(
      state.streams,
      { key: (s) => s.stream_id, unique: { name: (s) => s.name.toLowerCase() } },
      changed('streams'),
    );
    this.subscriptions = new Collection(
      state.subscriptions,
      {
        key: (s) => subscriptionKey(s.user_id, s.stream_id),
        // A channel's subscribers on every message sent, a user's subscriptions on every list.
        groups: { stream: (s) => s.stream_id, user: (s) => s.user_id },
      },
      changed('subscriptions'),
    );
    this.formerSubscriptions = new Collection(
      state.former_subscriptions,
      { key: (s) => subscriptionKey(s.user_id, s.stream_id) },
      changed('former_subscriptions'),
    );
    this.userGroups = new Collection(state.user_groups, { key: (g) => g.id }, changed('user_groups'));
    this.channelFolders = new Collection(state.channel_folders, { key: (f) => f.id }, changed('channel_folders'));
    this.linkifiers = new Collection(state.linkifiers, { key: (l) => l.id }, changed('linkifiers'));
    this.realmEmoji = new Collection(state.realm_emoji, { key: (e) => e.id }, changed('realm_emoji'));
    this.messages = new Collection(
      state.messages,
      {
        key: (m) => m.id,
        // Sends check whether a topic exists and who took part in it: without this, a scan of every message.
        groups: { topic: (m) => (m.type === 'stream' && m.stream_id !== null ? topicKey(m.stream_id, m.topic) : null) },
        // A user's own messages (those with flags for them: the real server's UserMessage rows),
        // in ID order, and those unread and starred: what register's sections read, so that their
        // cost is the user's messages (or fewer), not every message stored. A channel's and a
        // topic's messages in ID order (the topic group above is a set, out of order after moves),
        // a direct conversation's and a sender's: where a narrow's window, a channel's topics and a
        // mark-as-read start from.
        multiGroups: {
          receivedBy,
          unreadBy: flaggedBy('read', false),
          starredBy: flaggedBy('starred', true),
          inChannel,
          inTopic,
          conversation,
          sentBy,
        },
        multiGroupFields: {
          receivedBy: ['flags'],
          unreadBy: ['flags'],
          starredBy: ['flags'],
          inChannel: ['stream_id'],
          inTopic: ['type', 'stream_id', 'topic'],
          conversation: ['type', 'recipient_ids'],
          sentBy: ['sender_id'],
        },
      },
      changed('messages'),
    );
    this.userTopics = new Collection(
      state.user_topics,
      { key: (t) => userTopicKey(t.user_id, t.stream_id, t.topic) },
      changed('user_topics'),
    );
    this.scheduledMessages = new Collection(
      state.scheduled_messages,
      { key: (m) => m.scheduled_message_id },
      changed('scheduled_messages'),
    );
    this.reminders = new Collection(state.reminders, { key: (r) => r.reminder_id }, changed('reminders'));
    this.savedSnippets = new Collection(state.saved_snippets, { key: (s) => s.id }, changed('saved_snippets'));
    this.navigationViews = new Collection(
      state.navigation_views,
      { key: (v) => navigationViewKey(v.user_id, v.fragment), groups: { user: (v) => v.user_id } },
      changed('navigation_views'),
    );
    this.remotePushDevices = new Collection(
      state.remote_push_devices,
      { key: (d) => remotePushDeviceKey(d.server_uuid, d.realm_uuid, d.token_id) },
      changed('remote_push_devices'),
    );
    this.drafts = new Collection(state.drafts, { key: (d) => d.id }, changed('drafts'));
    this.attachments = new Collection(
      state.attachments,
      { key: (a) => a.id, unique: { path_id: (a) => a.path_id } },
      changed('attachments'),
    );
    this.pushDevices = new Collection(state.push_devices, { key: (d) => d.device_id }, changed('push_devices'));
    this.sentPushNotifications = new Collection(
      state.sent_push_notifications,
      { key: (n) => n.id },
      changed('sent_push_notifications'),
    );
    this.botStorage = new Collection(
      state.bot_storage,
      { key: (e) => botStorageKey(e.user_id, e.key), groups: { user: (e) => e.user_id } },
      changed('bot_storage'),
    );
    this.userAvatars = new Collection(state.user_avatars, { key: (a) => a.path_id }, changed('user_avatars'));
    // Fixtures and snapshots made before invitations existed have none.
    this.invites = new Collection(
      (state.invites ??= []),
      // Email invitations and links have IDs of their own sequences: looked up by kind and ID.
      {
        key: (i) => i.key,
        unique: { kindId: (i) => inviteKindId(i.is_multiuse, i.id) },
        groups: { kind: (i) => (i.is_multiuse ? 'link' : 'email') },
      },
      changed('invites'),
    );
    this.byName = new Map<CollectionName, Collection<any>>([
      ['users', this.users],
      ['streams', this.streams],
      ['subscriptions', this.subscriptions],
      ['user_groups', this.userGroups],
      ['channel_folders', this.channelFolders],
      ['linkifiers', this.linkifiers],
      ['realm_emoji', this.realmEmoji],
      ['messages', this.messages],
      ['user_topics', this.userTopics],
      ['scheduled_messages', this.scheduledMessages],
      ['reminders', this.reminders],
      ['saved_snippets', this.savedSnippets],
      ['drafts', this.drafts],
      ['navigation_views', this.navigationViews],
      ['remote_push_devices', this.remotePushDevices],
      ['push_devices', this.pushDevices],
      ['sent_push_notifications', this.sentPushNotifications],
      ['former_subscriptions', this.formerSubscriptions],
      ['bot_storage', this.botStorage],
      ['attachments', this.attachments],
      ['user_avatars', this.userAvatars],
      ['invites', this.invites],
    ]);
    // A reset or an import starts the IDs again from its rows, as a fresh world does.
    this.counters.clear();
    this.reserved.clear();
    this.lastBlock.clear();
    this.floors = {};
    // Taken before the listeners hear of the load: a change one of them makes counts as a change.
    const versions = new Map(this.partVersions).set('load', (this.partVersions.get('load') ?? 0) + 1);
    this.loaded = { fileHash: stateFileHash(state), versions };
    this.markChanged({ t: 'load' });
  }

  /**
   * The SHA-256 of the state file the last load read, while none of `parts` has changed since
   * (values derived from those parts of that file, made elsewhere, still hold); null otherwise.
   */
  loadedFileUnchanged(parts: ReadonlyArray<CollectionName | 'realm'>): string | null {
    const { fileHash, versions } = this.loaded;
    if (fileHash === null) return null;
    for (const p of ['load', ...parts]) if ((this.partVersions.get(p) ?? 0) !== (versions.get(p) ?? 0)) return null;
    return fileHash;
  }

  /** Re-applies a logged change without logging it again (replay after a restart). */
  replay(change: Change): void {
    if (change.t === 'load') return;
    if (change.t === 'realm') Object.assign(this.state.realm, change.patch);
    else this.byName.get(change.c)?.replay(change);
    this.version++;
    this.bumpPart(change);
  }

  /**
   * A number that changes whenever the named parts of the state change (a whole new state
   * changes every part): what a cache of values derived from those parts only is keyed on.
   */
  partsVersion(parts: ReadonlyArray<CollectionName | 'realm'>): string {
    let stamp = String(this.partVersions.get('load') ?? 0);
    for (const p of parts) stamp += `.${this.partVersions.get(p) ?? 0}`;
    return stamp;
  }

  private bumpPart(change: Change): void {
    const part = change.t === 'load' ? 'load' : change.t === 'realm' ? 'realm' : change.c;
    this.partVersions.set(part, (this.partVersions.get(part) ?? 0) + 1);
  }

  get realm() {
    return this.state.realm;
  }

  /** Changes organization settings (the realm is a single object, not a collection). */
  updateRealm(patch: Partial<State['realm']>): void {
    Object.assign(this.state.realm, patch);
    this.markChanged({ t: 'realm', patch });
  }

  /** The next free ID of a collection: one more than the largest ever handed out. */
  nextId(name: CounterName): number {
    const next = this.peekId(name);
    // Like a database sequence: the block is reserved (on disk) before its first ID is used, so
    // that after a crash the counter starts above every ID it may have acknowledged.
    if (this.reserve && next >= (this.reserved.get(name) ?? 0)) {
      const now = this.reserveNowMs();
      const last = this.lastBlock.get(name);
      const size = last && now - last.atMs < ID_BLOCK_FAST_MS ? Math.min(last.size * 2, ID_BLOCK_MAX) : ID_BLOCK;
      const limit = next + size;
      this.reserve(name, limit);
      this.reserved.set(name, limit);
      this.lastBlock.set(name, { size, atMs: now });
    }
    this.counters.set(name, next + 1);
    return next;
  }

  /** The ID nextId would hand out now, without taking it. */
  peekId(name: CounterName): number {
    let next = this.counters.get(name);
    if (next === undefined) {
      next = Math.max(1, this.floors[name] ?? 0);
      const rows = this.state[name] as unknown as Array<Record<string, number>>;
      const key = idField[name];
      for (const row of rows) if (row[key] >= next) next = row[key] + 1;
      this.counters.set(name, next);
    }
    return next;
  }

  /**
   * Persisted worlds only: start each counter at or above `floors` (the limits reserved before
   * the last stop), and call `reserve` before handing out an ID beyond what was reserved.
   */
  reserveIds(
    floors: IdLimits,
    reserve: (name: CounterName, limit: number) => void,
    nowMs: () => number = () => performance.now(),
  ): void {
    this.floors = floors;
    this.reserve = reserve;
    this.reserveNowMs = nowMs;
    this.counters.clear();
    this.reserved.clear();
    this.lastBlock.clear();
  }

  onChange(listener: (change: Change) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  private markChanged(change: Change): void {
    this.version++;
    this.bumpPart(change);
    for (const l of this.listeners) l(change);
  }
}

export const idField: Record<CounterName, string> = {
  users: 'user_id',
  streams: 'stream_id',
  user_groups: 'id',
  channel_folders: 'id',
  linkifiers: 'id',
  realm_emoji: 'id',
  messages: 'id',
  scheduled_messages: 'scheduled_message_id',
  reminders: 'reminder_id',
  saved_snippets: 'id',
  drafts: 'id',
  push_devices: 'device_id',
  sent_push_notifications: 'id',
  attachments: 'id',
};

/** The unique index of an invitation: its kind (link or email) and its ID in that kind's sequence. */
export const inviteKindId = (multiuse: boolean, id: number): string => `${multiuse ? 'link' : 'email'}:${id}`;
