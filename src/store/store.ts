// The store: the only code that holds the state and changes it. Domain code reads through the
// collections and changes rows through their insert/update/remove; the store tells its persister
// that something changed (it decides when to write; see persist.ts).
import { Collection } from './collection.js';
import type {
  ChannelFolder, Draft, Linkifier, Message, PushDevice, RealmEmoji, Reminder, SavedSnippet,
  ScheduledMessage, SentPushNotification, State, Stream, Subscription, User, UserGroup, UserTopic,
} from './state.js';

export type CounterName =
  | 'users' | 'streams' | 'user_groups' | 'channel_folders' | 'linkifiers' | 'realm_emoji' | 'messages'
  | 'scheduled_messages' | 'reminders' | 'saved_snippets' | 'drafts' | 'push_devices' | 'sent_push_notifications';

export const subscriptionKey = (userId: number, streamId: number) => `${userId}:${streamId}`;
/** Topics compare case-insensitively, as on the real server. */
export const userTopicKey = (userId: number, streamId: number, topic: string) =>
  `${userId}:${streamId}:${topic.toLowerCase()}`;

export class Store {
  state!: State;
  users!: Collection<User>;
  streams!: Collection<Stream>;
  subscriptions!: Collection<Subscription>;
  userGroups!: Collection<UserGroup>;
  channelFolders!: Collection<ChannelFolder>;
  linkifiers!: Collection<Linkifier>;
  realmEmoji!: Collection<RealmEmoji>;
  messages!: Collection<Message>;
  userTopics!: Collection<UserTopic>;
  scheduledMessages!: Collection<ScheduledMessage>;
  reminders!: Collection<Reminder>;
  savedSnippets!: Collection<SavedSnippet>;
  drafts!: Collection<Draft>;
  pushDevices!: Collection<PushDevice>;
  sentPushNotifications!: Collection<SentPushNotification>;
  private counters = new Map<CounterName, number>();
  /** Bumped on every change; the persister and the inspector watch it. */
  version = 0;
  private listeners: Array<() => void> = [];

  constructor(state: State) {
    this.load(state);
  }

  /** Replaces the whole state (reset, import) and rebuilds every index. */
  load(state: State): void {
    this.state = state;
    const changed = () => this.markChanged();
    this.users = new Collection(state.users, { key: (u) => u.user_id, unique: { email: (u) => u.email.toLowerCase() } }, changed);
    this.streams = new Collection(state.streams, { key: (s) => s.stream_id, unique: { name: (s) => s.name.toLowerCase() } }, changed);
    this.subscriptions = new Collection(state.subscriptions, { key: (s) => subscriptionKey(s.user_id, s.stream_id) }, changed);
    this.userGroups = new Collection(state.user_groups, { key: (g) => g.id }, changed);
    this.channelFolders = new Collection(state.channel_folders, { key: (f) => f.id }, changed);
    this.linkifiers = new Collection(state.linkifiers, { key: (l) => l.id }, changed);
    this.realmEmoji = new Collection(state.realm_emoji, { key: (e) => e.id }, changed);
    this.messages = new Collection(state.messages, { key: (m) => m.id }, changed);
    this.userTopics = new Collection(state.user_topics, { key: (t) => userTopicKey(t.user_id, t.stream_id, t.topic) }, changed);
    this.scheduledMessages = new Collection(state.scheduled_messages, { key: (m) => m.scheduled_message_id }, changed);
    this.reminders = new Collection(state.reminders, { key: (r) => r.reminder_id }, changed);
    this.savedSnippets = new Collection(state.saved_snippets, { key: (s) => s.id }, changed);
    this.drafts = new Collection(state.drafts, { key: (d) => d.id }, changed);
    this.pushDevices = new Collection(state.push_devices, { key: (d) => d.device_id }, changed);
    this.sentPushNotifications = new Collection(state.sent_push_notifications, { key: (n) => n.id }, changed);
    this.counters.clear();
    this.markChanged();
  }

  get realm() { return this.state.realm; }

  /** Changes organization settings (the realm is a single object, not a collection). */
  updateRealm(patch: Partial<State['realm']>): void {
    Object.assign(this.state.realm, patch);
    this.markChanged();
  }

  /** The next free ID of a collection: one more than the largest ever handed out. */
  nextId(name: CounterName): number {
    let next = this.counters.get(name);
    if (next === undefined) {
      next = 1;
      const rows = this.state[name] as unknown as Array<Record<string, number>>;
      const key = idField[name];
      for (const row of rows) if (row[key] >= next) next = row[key] + 1;
    }
    this.counters.set(name, next + 1);
    return next;
  }

  onChange(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => { this.listeners = this.listeners.filter((l) => l !== listener); };
  }

  private markChanged(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}

const idField: Record<CounterName, string> = {
  users: 'user_id', streams: 'stream_id', user_groups: 'id', channel_folders: 'id', linkifiers: 'id',
  realm_emoji: 'id', messages: 'id', scheduled_messages: 'scheduled_message_id', reminders: 'reminder_id',
  saved_snippets: 'id', drafts: 'id', push_devices: 'device_id', sent_push_notifications: 'id',
};
