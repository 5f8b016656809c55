// Writes fixtures/default.json: the real server's development organization as
// `populate_db --test-suite` builds it (the one its API documentation's examples run against), at
// its IDs, plus what the mock adds for client work at IDs after the real ones. Rows' shapes and the
// mock's additions (settings, presence, uploads, push devices) come from fixtures/classic.json;
// message HTML is rendered by the mock's own renderer. Run: npx tsx scripts/generate-dev-org.ts
// What differs from the real organization: docs/decisions/default-fixture-is-the-dev-org.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { GroupSettingValue, Message, State, Subscription, User, UserGroup } from '../src/store/state.js';
import { Store } from '../src/store/store.js';
import { checkState } from '../src/store/fixture.js';
import { STATE_RULES } from '../src/domain/state-rules.js';
import { renderMarkdown } from '../src/domain/render/markdown.js';
import { STREAM_COLORS } from '../src/domain/channels/add-subscriptions.js';

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const classic = JSON.parse(readFileSync(root('fixtures/classic.json'), 'utf8')) as State;
const classicUser = (email: string) => classic.users.find((u) => u.email === email)!;

// ---- Users: system bots first (server_initialization.py), then people and bots, each batch sorted
// by email case-sensitively (bulk_create.py); 19-21 are the MIT organization's people in the real
// test database, so the mock's own users take 22-24 and a created user gets 25, as there.
interface Person {
  id: number;
  email: string;
  name: string;
  role?: 100 | 200 | 300 | 400 | 600;
  tz?: string;
  /** Classic fixture user whose key, password and extras (presence, alert words...) carry over. */
  from?: string;
  bot?: { type: number; owner: number | null; system?: boolean };
  active?: boolean;
}
const PEOPLE: Person[] = [
  {
    id: 1,
    email: 'emailgateway@zulip.com',
    name: 'Email Gateway',
    from: 'emailgateway@zulip.com',
    bot: { type: 1, owner: null, system: true },
  },
  {
    id: 2,
    email: 'nagios-receive-bot@zulip.com',
    name: 'Nagios Receive Bot',
    bot: { type: 1, owner: null, system: true },
  },
  { id: 3, email: 'nagios-send-bot@zulip.com', name: 'Nagios Send Bot', bot: { type: 1, owner: null, system: true } },
  {
    id: 4,
    email: 'notification-bot@zulip.com',
    name: 'Notification Bot',
    from: 'notification-bot@zulip.com',
    bot: { type: 1, owner: null, system: true },
  },
  {
    id: 5,
    email: 'welcome-bot@zulip.com',
    name: 'Welcome Bot',
    from: 'welcome-bot@zulip.com',
    bot: { type: 1, owner: null, system: true },
  },
  { id: 6, email: 'AARON@zulip.com', name: 'aaron', tz: 'US/Pacific', from: 'aaron@zulip.com' },
  { id: 7, email: 'ZOE@zulip.com', name: 'Zoe', tz: 'US/Eastern' },
  { id: 8, email: 'cordelia@zulip.com', name: "Cordelia, Lear's daughter", tz: 'UTC', from: 'cordelia@zulip.com' },
  {
    id: 9,
    email: 'desdemona@zulip.com',
    name: 'Desdemona',
    role: 100,
    tz: 'Canada/Newfoundland',
    from: 'desdemona@zulip.com',
  },
  { id: 10, email: 'hamlet@zulip.com', name: 'King Hamlet', from: 'hamlet@zulip.com' },
  { id: 11, email: 'iago@zulip.com', name: 'Iago', role: 200, tz: 'US/Eastern', from: 'iago@zulip.com' },
  {
    id: 12,
    email: 'othello@zulip.com',
    name: 'Othello, the Moor of Venice',
    tz: 'US/Pacific',
    from: 'othello@zulip.com',
  },
  { id: 13, email: 'polonius@zulip.com', name: 'Polonius', role: 600, tz: 'Asia/Shanghai', from: 'polonius@zulip.com' },
  { id: 14, email: 'prospero@zulip.com', name: 'Prospero from The Tempest', from: 'prospero@zulip.com' },
  { id: 15, email: 'shiva@zulip.com', name: 'शिव', role: 300, tz: 'Asia/Kolkata', from: 'shiva@zulip.com' },
  { id: 16, email: 'default-bot@zulip.com', name: 'Zulip Default Bot', bot: { type: 1, owner: 9 } },
  { id: 17, email: 'webhook-bot@zulip.com', name: 'Zulip Webhook Bot', bot: { type: 2, owner: 7 } },
  { id: 18, email: 'outgoing-webhook@zulip.com', name: 'Outgoing Webhook', bot: { type: 3, owner: 6 } },
  // The mock's own: a deactivated person and two bots of people.
  { id: 22, email: 'ariel@zulip.com', name: 'Ariel', from: 'ariel@zulip.com', active: false },
  { id: 23, email: 'iago-bot@zulip.com', name: "Iago's Bot", from: 'iago-bot@zulip.com', bot: { type: 1, owner: 11 } },
  {
    id: 24,
    email: 'hamlet-bot@zulip.com',
    name: "Hamlet's Bot",
    from: 'hamlet-bot@zulip.com',
    bot: { type: 1, owner: 10 },
  },
];
/** Classic user ID -> this fixture's. */
const USER = new Map<number, number>(PEOPLE.filter((p) => p.from).map((p) => [classicUser(p.from!).user_id, p.id]));
const byEmail = (email: string) => PEOPLE.find((p) => p.email.toLowerCase() === email.toLowerCase())!.id;
const [AARON, ZOE, CORDELIA, DESDEMONA, HAMLET, IAGO, OTHELLO, POLONIUS, PROSPERO, SHIVA] = [
  'aaron',
  'zoe',
  'cordelia',
  'desdemona',
  'hamlet',
  'iago',
  'othello',
  'polonius',
  'prospero',
  'shiva',
].map((n) => byEmail(`${n}@zulip.com`));

/** A fixed key for a user the classic fixture does not have (real keys are random per install). */
const newKey = (email: string) =>
  createHash('sha256')
    .update(`teamchat-mock ${email}`)
    .digest('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 32);

// ---- Groups: eight system groups per organization (user_groups.py), the system bots' organization
// first (1-8), this one 9-16; 17-32 are the MIT and Lear organizations' in the real test database;
// populate_db's hamletcharacters is 33, then the mock's own named groups.
const GROUP = new Map<number, number>([
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((g) => [g, g + 8] as [number, number]),
  [9, 33],
  [10, 34],
  [11, 35],
  [12, 36],
]);
const NOBODY = 9;
const EVERYONE = 15;
const mapGroup = (v: GroupSettingValue): GroupSettingValue =>
  typeof v === 'number'
    ? GROUP.get(v)!
    : {
        direct_members: v.direct_members.map((u) => USER.get(u)!),
        direct_subgroups: v.direct_subgroups.map((g) => GROUP.get(g)!),
      };

// ---- Channels: the Zulip, sandbox and general (renamed Verona) channels do_create_realm makes
// (1-3), the MIT and Lear organizations' (4-9), then populate_db's, created sorted by name (10-14).
const CHANNEL = {
  zulip: 1,
  sandbox: 2,
  Verona: 3,
  Denmark: 10,
  Rome: 11,
  Scotland: 12,
  Venice: 13,
  core: 14,
  moderation: 15,
  oldRome: 16,
};
const CLASSIC_CHANNEL = new Map<number, number>([
  [1, CHANNEL.Denmark],
  [2, CHANNEL.Scotland],
  [3, CHANNEL.Verona],
  [4, CHANNEL.Venice],
  [5, CHANNEL.Rome],
  [6, CHANNEL.core],
  [7, CHANNEL.moderation],
  // The classic fixture's web-public Wales: Rome is this organization's web-public channel.
  [8, CHANNEL.Rome],
  [9, CHANNEL.oldRome],
]);

function main(): void {
  const state = structuredClone(classic) as State;
  const template = classicUser('hamlet@zulip.com');

  state.users = PEOPLE.map((p): User => {
    const old = p.from ? classicUser(p.from) : null;
    const isBot = Boolean(p.bot);
    const settings = { ...template.settings, ...(old?.settings ?? {}) };
    // The mock's own people keep their time zones; populate_db leaves Hamlet's and Prospero's empty.
    const tz = isBot ? '' : (p.tz ?? (p.id >= 22 ? (old?.timezone ?? '') : ''));
    Object.assign(settings, { timezone: tz, email_address_visibility: 1 });
    if (!isBot)
      // populate_db --test-suite: the organization's default enter_sends, and no automatic follows.
      Object.assign(settings, {
        enter_sends: true,
        automatically_follow_topics_policy: 4,
        automatically_unmute_topics_in_muted_streams_policy: 4,
        automatically_follow_topics_where_mentioned: false,
      });
    const user: User = {
      user_id: p.id,
      email: p.email,
      delivery_email: p.email,
      full_name: p.name,
      api_key: old?.api_key ?? newKey(p.email),
      password: old?.password ?? `password_${p.email.split('@')[0].toLowerCase()}`,
      role: p.role ?? 400,
      is_active: p.active ?? true,
      is_bot: isBot,
      bot_type: p.bot?.type ?? null,
      bot_owner_id: p.bot?.owner ?? null,
      is_system_bot: p.bot?.system ?? false,
      date_joined: old?.date_joined ?? '2026-01-15T09:00:00+00:00',
      last_active: old?.last_active ?? 1795200000,
      avatar_version: 1,
      timezone: tz,
      settings,
      settings_edited: [],
      status: { status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' },
      pending_email: null,
    };
    if (old?.presence) user.presence = old.presence;
    if (old?.alert_words) user.alert_words = old.alert_words;
    if (old?.muted_users) user.muted_users = old.muted_users.map((m) => ({ ...m, id: USER.get(m.id)! }));
    if (p.id === 18)
      user.bot_service = {
        name: 'outgoing-webhook',
        base_url: 'http://127.0.0.1:5002',
        interface: 1,
        token: newKey('outgoing-webhook token'),
      };
    return user;
  });

  // The renderer reads the organization (users, channels, linkifiers, emoji) from a store: it is
  // made once they are this organization's, and kept up to date while channels are described.
  let store: Store | null = null;
  const render: Render = (text, sender = null) =>
    renderMarkdown(store!, text, sender === null ? null : store!.users.get(sender)!);

  buildRealm(state);
  buildLinkifiers(state);
  state.streams = [];
  store = new Store(state);
  buildChannels(state, render, () => (store = new Store(state)));
  buildGroups(state);
  store = new Store(state);
  buildProfileData(state, render);
  buildMessages(state, render);
  buildRest(state, render);

  const checked = checkState(JSON.parse(JSON.stringify(state)), 'fixtures/default.json', STATE_RULES);
  writeFileSync(root('fixtures/default.json'), `${JSON.stringify(checked, null, 2)}\n`);
  console.log(
    `fixtures/default.json: ${state.users.length} users, ${state.streams.length} channels, ${state.messages.length} messages`,
  );
}

type Render = (text: string, sender?: number | null) => string;

function buildRealm(state: State): void {
  const realm = state.realm;
  Object.assign(realm, {
    name: 'Zulip Dev',
    description: "The Zulip development environment default organization.  It's great for testing!",
    new_stream_announcements_stream_id: CHANNEL.Verona,
    signup_announcements_stream_id: null,
    moderation_request_channel_id: CHANNEL.moderation,
    default_stream_ids: [CHANNEL.zulip, CHANNEL.sandbox, CHANNEL.Verona],
    notification_bot_id: 4,
    email_gateway_bot_id: 1,
    welcome_bot_id: 5,
    playgrounds: [],
  });
  const isGroupSetting = (key: string) =>
    key.endsWith('_group') || key === 'can_manage_all_groups' || key === 'can_create_groups';
  for (const [key, value] of Object.entries(realm))
    if (isGroupSetting(key) && value !== null && typeof value !== 'string')
      (realm as unknown as Record<string, GroupSettingValue>)[key] = mapGroup(value as GroupSettingValue);
  const shown = realm.shown_settings as Record<string, unknown>;
  for (const [key, value] of Object.entries(shown))
    if (isGroupSetting(key) && (typeof value === 'number' || (value && typeof value === 'object')))
      shown[key] = mapGroup(value as GroupSettingValue);
  Object.assign(shown, {
    can_access_all_users_group: EVERYONE,
    zulip_update_announcements_stream_id: CHANNEL.Verona,
    org_type: 10,
  });
  realm.default_stream_groups = [
    { id: 1, name: 'Shakespeare', description: 'Channels about the plays', streams: [CHANNEL.Verona, CHANNEL.Venice] },
  ];
  // populate_db's fields (Favorite food's hint as it writes it; every field shown only on the profile).
  const field = (id: number, type: number, name: string, hint = '', field_data = '') => ({
    id,
    type,
    order: id,
    name,
    hint,
    field_data,
    display_in_profile_summary: false,
    required: false,
    editable_by_user: true,
  });
  realm.custom_profile_fields = [
    field(1, 1, 'Phone number'),
    field(2, 2, 'Biography', 'What are you known for?'),
    field(3, 1, 'Favorite food', "Or drink, if you'd prefer"),
    field(
      4,
      3,
      'Favorite editor',
      '',
      JSON.stringify({ 0: { text: 'Vim', order: '1' }, 1: { text: 'Emacs', order: '2' } }),
    ),
    field(5, 4, 'Birthday'),
    field(6, 5, 'Favorite website', "Or your personal blog's URL"),
    field(7, 6, 'Mentor'),
    field(8, 7, 'GitHub username', '', JSON.stringify({ subtype: 'github' })),
    field(9, 8, 'Pronouns', 'What pronouns should people use to refer to you?'),
  ];
}

function buildChannels(state: State, render: Render, refresh: () => void): void {
  const base = classic.streams[0];
  const channel = (stream_id: number, name: string, description: string, extra: Record<string, unknown> = {}) => {
    const creator = (extra.creator_id as number | undefined) ?? null;
    return {
      ...base,
      stream_id,
      name,
      description,
      rendered_description: render(description),
      date_created: 1768467600 + stream_id * 60,
      creator_id: creator,
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      folder_id: null,
      topics_policy: 'inherit',
      stream_weekly_traffic: null,
      can_add_subscribers_group: NOBODY,
      can_remove_subscribers_group: 11,
      can_administer_channel_group: creator === null ? NOBODY : { direct_members: [creator], direct_subgroups: [] },
      can_delete_any_message_group: NOBODY,
      can_delete_own_message_group: EVERYONE,
      can_move_messages_out_of_channel_group: NOBODY,
      can_move_messages_within_channel_group: NOBODY,
      can_send_message_group: EVERYONE,
      can_subscribe_group: NOBODY,
      can_create_topic_group: EVERYONE,
      can_resolve_topics_group: NOBODY,
      ...extra,
    };
  };
  state.streams = [
    channel(CHANNEL.zulip, 'Zulip', 'Questions and discussion about using Zulip.'),
    channel(CHANNEL.sandbox, 'sandbox', 'Experiment with Zulip here. :test_tube:'),
    channel(CHANNEL.Verona, 'Verona', 'A city in Italy'),
    channel(CHANNEL.Denmark, 'Denmark', 'A Scandinavian country'),
    channel(CHANNEL.Rome, 'Rome', 'Yet another Italian city', { is_web_public: true }),
    channel(CHANNEL.Scotland, 'Scotland', 'Located in the United Kingdom', { creator_id: IAGO }),
    channel(CHANNEL.Venice, 'Venice', 'A northeastern Italian city', { creator_id: POLONIUS }),
    channel(CHANNEL.core, 'core team', 'A private channel for core team members', {
      invite_only: true,
      creator_id: DESDEMONA,
    }),
    // The mock's own: the moderation request channel and an archived channel in an archived folder.
    channel(CHANNEL.moderation, 'moderation', 'Message reports for moderators.', {
      invite_only: true,
      creator_id: IAGO,
    }),
    channel(CHANNEL.oldRome, 'Old Rome', 'Archived: see #**Rome** instead.', {
      is_archived: true,
      is_recently_active: false,
      folder_id: 3,
    }),
  ] as State['streams'];
  // Descriptions link channels by name: rendered again once every channel exists.
  refresh();
  for (const c of state.streams) c.rendered_description = render(c.description);
  state.channel_folders = classic.channel_folders.map((f) => ({ ...f, creator_id: USER.get(f.creator_id!) ?? null }));

  // populate_db --test-suite's subscriptions, people in email order, colours in the real palette's order.
  const { Verona, Denmark, Scotland, Venice, Rome, core, zulip, sandbox } = CHANNEL;
  const map: Array<[number, number[]]> = [
    [AARON, [Verona]],
    [ZOE, [Verona, Denmark, Scotland, Venice, Rome]],
    [CORDELIA, [Verona]],
    [DESDEMONA, [Verona, Denmark, Venice, core, zulip, sandbox]],
    [HAMLET, [Verona, Denmark, core, zulip, sandbox]],
    [IAGO, [Verona, Denmark, Scotland, core, zulip, sandbox]],
    [OTHELLO, [Verona, Denmark, Scotland]],
    [POLONIUS, [Verona]],
    [PROSPERO, [Verona, Denmark, Scotland, Venice]],
    [SHIVA, [Verona, Denmark, Scotland]],
    // The mock's own channels.
    [IAGO, [CHANNEL.moderation, CHANNEL.oldRome]],
    [SHIVA, [CHANNEL.moderation]],
    [DESDEMONA, [CHANNEL.moderation]],
    [HAMLET, [CHANNEL.oldRome]],
  ];
  const sub = classic.subscriptions[0];
  let i = 0;
  state.subscriptions = map.flatMap(([user_id, ids]) =>
    ids.map((stream_id): Subscription => ({
      ...sub,
      user_id,
      stream_id,
      color: STREAM_COLORS[++i % STREAM_COLORS.length],
    })),
  );
  state.former_subscriptions = [];
}

function buildGroups(state: State): void {
  const role = (r: number) =>
    state.users.filter((u) => u.role === r && u.is_active && !u.is_system_bot).map((u) => u.user_id);
  state.user_groups = classic.user_groups.map((g): UserGroup => {
    const id = GROUP.get(g.id)!;
    const group: UserGroup = {
      ...g,
      id,
      direct_members: g.direct_members.map((u) => USER.get(u)!),
      direct_subgroups: g.direct_subgroups.map((s) => GROUP.get(s)!),
      creator_id: g.creator_id === null ? null : USER.get(g.creator_id)!,
      can_manage_group: mapGroup(g.can_manage_group),
      can_add_members_group: mapGroup(g.can_add_members_group),
      can_remove_members_group: mapGroup(g.can_remove_members_group),
      can_join_group: mapGroup(g.can_join_group),
      can_leave_group: mapGroup(g.can_leave_group),
      can_mention_group: mapGroup(g.can_mention_group),
    };
    if (g.is_system_group) {
      const members: Record<string, number[]> = {
        'role:owners': role(100),
        'role:administrators': role(200),
        'role:moderators': role(300),
        'role:fullmembers': role(400),
        'role:members': role(400),
        'role:everyone': role(600),
      };
      group.direct_members = members[g.name] ?? [];
      if (g.name === 'role:internet') group.description = 'Everyone on the Internet';
    }
    // populate_db: Cordelia creates hamletcharacters with herself and Hamlet.
    if (g.name === 'hamletcharacters')
      Object.assign(group, { direct_members: [CORDELIA, HAMLET], creator_id: CORDELIA });
    return group;
  });
}

function buildProfileData(state: State, render: Render): void {
  const data = (values: string[]) =>
    Object.fromEntries(
      values.map((value, i) => {
        const type = state.realm.custom_profile_fields![i].type;
        return [String(i + 1), type === 1 || type === 2 ? { value, rendered_value: render(value) } : { value }];
      }),
    );
  for (const u of state.users) delete u.profile_data;
  const user = (id: number) => state.users.find((u) => u.user_id === id)!;
  user(IAGO).profile_data = data([
    '+1-234-567-8901',
    'Betrayer of Othello.',
    'Apples',
    '1',
    '2000-01-01',
    'https://zulip.readthedocs.io/en/latest/',
    `[${HAMLET}]`,
    'zulip',
    'he/him',
  ]);
  user(HAMLET).profile_data = data([
    '+0-11-23-456-7890',
    'I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius',
    'Dark chocolate',
    '0',
    '1900-01-01',
    'https://blog.zulig.org',
    `[${IAGO}]`,
    'zulipbot',
    'he/him',
  ]);
}

/** The first message ID: after the real test database's (the documentation's examples name 43 and 47). */
const FIRST_MESSAGE = 30;

function buildMessages(state: State, render: Render): void {
  // Channel messages first (so that 43 and 47 are in public channels), then the rest.
  const order = [...classic.messages].sort((a, b) => rank(a) - rank(b) || a.id - b.id);
  const MESSAGE = new Map(order.map((m, i) => [m.id, FIRST_MESSAGE + i]));
  // IDs increase with time, as the real server's do: the classic timestamps, in the new order
  // (a message's edits move with it).
  const times = classic.messages.map((m) => m.timestamp).sort((a, b) => a - b);
  const shift = new Map(order.map((m, i) => [m.id, times[i] - m.timestamp]));
  const later = (t: number | null | undefined, id: number) => (t === null || t === undefined ? t : t + shift.get(id)!);
  const subscribers = (streamId: number) =>
    state.subscriptions.filter((s) => s.stream_id === streamId).map((s) => s.user_id);
  state.messages = order.map((m): Message => {
    const id = MESSAGE.get(m.id)!;
    const sender = USER.get(m.sender_id)!;
    const content = rewrite(m.content);
    const streamId = m.stream_id === null ? null : CLASSIC_CHANNEL.get(m.stream_id)!;
    const recipients = streamId === null ? m.recipient_ids.map((u) => USER.get(u)!).sort((a, b) => a - b) : [];
    const receivers = new Set(streamId === null ? recipients : [...subscribers(streamId), sender]);
    const flags: Record<string, string[]> = {};
    for (const u of receivers) {
      const classicId = [...USER].find(([, v]) => v === u)?.[0];
      const old = classicId === undefined ? undefined : m.flags[String(classicId)];
      const kept = (old ?? ['read']).filter((f) => f !== 'mentioned' && f !== 'wildcard_mentioned');
      flags[String(u)] = u === sender && !kept.includes('read') ? ['read', ...kept] : kept;
    }
    const message: Message = {
      ...m,
      id,
      sender_id: sender,
      stream_id: streamId,
      recipient_ids: recipients,
      content,
      rendered_content: render(content, sender),
      flags,
      reactions: m.reactions.map((r) => ({ ...r, user_id: USER.get(r.user_id)! })),
      timestamp: later(m.timestamp, m.id)!,
      last_edit_timestamp: later(m.last_edit_timestamp, m.id) ?? null,
    };
    if (m.last_moved_timestamp) message.last_moved_timestamp = later(m.last_moved_timestamp, m.id);
    if (m.edit_history)
      message.edit_history = m.edit_history.map((e) => ({
        ...e,
        user_id: e.user_id === null ? null : USER.get(e.user_id)!,
        timestamp: later(e.timestamp, m.id)!,
        ...(e.prev_content !== undefined
          ? { prev_content: rewrite(e.prev_content), prev_rendered_content: render(rewrite(e.prev_content), sender) }
          : {}),
      }));
    return message;
  });
  // Mentions as the renderer finds them now (names and IDs changed).
  for (const m of state.messages) {
    const html = m.rendered_content;
    const wildcard = /data-user-id="\*"|channel-wildcard-mention|topic-mention/.test(html);
    const mentioned = new Set(
      [...html.matchAll(/class="user-mention[^"]*" data-user-id="(\d+)"/g)]
        .filter((x) => !x[0].includes('silent'))
        .map((x) => Number(x[1])),
    );
    for (const [u, f] of Object.entries(m.flags)) {
      if (Number(u) === m.sender_id) continue;
      if (mentioned.has(Number(u))) f.push('mentioned');
      else if (wildcard) f.push('wildcard_mentioned');
    }
  }
  state.attachments = classic.attachments.map((a) => ({
    ...a,
    owner_id: USER.get(a.owner_id)!,
    message_ids: a.message_ids.map((x) => MESSAGE.get(x)!),
  }));
  state.user_topics = classic.user_topics.map((t) => ({
    ...t,
    user_id: USER.get(t.user_id)!,
    stream_id: CLASSIC_CHANNEL.get(t.stream_id)!,
  }));
  state.reminders = classic.reminders.map((r) => ({
    ...r,
    user_id: USER.get(r.user_id)!,
    message_id: MESSAGE.get(r.message_id)!,
  }));
}

/** Channel messages of public channels first, then private and archived channels, then direct messages. */
function rank(m: Message): number {
  if (m.stream_id === null) return 3;
  return [6, 7, 9].includes(m.stream_id) ? 2 : 1;
}

/** Classic content that names what this organization does not have. */
function rewrite(content: string): string {
  return content
    .replace('@_**Shiva|3**', `@_**शिव|${SHIVA}**`)
    .replace('can you look at #123?', 'can you look at zulip-mobile#123?')
    .replace('review #456', 'review zulip-desktop#456')
    .replace('#**Wales**', '#**Rome**');
}

function buildLinkifiers(state: State): void {
  // populate_db's linkifiers: the documentation's examples add #(?P<id>[0-9]+) themselves (ID 4).
  state.linkifiers = [
    ['#D(?P<id>[0-9]{2,8})', 'https://github.com/zulip/zulip-desktop/pull/{id}'],
    ['zulip-mobile#(?P<id>[0-9]{2,8})', 'https://github.com/zulip/zulip-mobile/pull/{id}'],
    ['zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', 'https://github.com/zulip/{repo}/pull/{id}'],
  ].map(([pattern, url_template], i) => ({
    id: i + 1,
    pattern,
    url_template,
    example_input: null,
    reverse_template: null,
    alternative_url_templates: [],
  }));
}

function buildRest(state: State, render: Render): void {
  state.realm_emoji = classic.realm_emoji.map((e) => ({ ...e, author_id: USER.get(e.author_id!)! }));
  // Iago's two drafts and two scheduled messages (the documentation's examples edit and delete
  // them), then the mock's own.
  const now = 1795200000;
  state.drafts = [
    {
      id: 1,
      user_id: IAGO,
      type: '',
      to: [],
      topic: 'Release Notes',
      content: 'Release 4.0 will contain ...',
      timestamp: now,
    },
    {
      id: 2,
      user_id: IAGO,
      type: '',
      to: [],
      topic: 'Release Notes',
      content: 'Release 4.0 will contain many new features such as ... ',
      timestamp: now,
    },
    ...classic.drafts.map((d, i) => ({
      ...d,
      id: 3 + i,
      user_id: USER.get(d.user_id)!,
      to: d.type === 'stream' ? d.to.map((s) => CLASSIC_CHANNEL.get(s)!) : d.to.map((u) => USER.get(u)!),
    })),
  ];
  const inAYear = now + 365 * 86400;
  const scheduled = (
    id: number,
    sender: number,
    type: 'stream' | 'private',
    to: number | number[],
    topic: string,
    content: string,
    at: number,
  ) => ({
    scheduled_message_id: id,
    sender_id: sender,
    type,
    to,
    topic,
    content,
    rendered_content: render(content, sender),
    scheduled_delivery_timestamp: at,
    read_by_sender: type === 'private' ? true : null,
    failed: false,
    delivered_message_id: null,
  });
  state.scheduled_messages = [
    scheduled(
      1,
      IAGO,
      'stream',
      CHANNEL.Denmark,
      'test-api',
      "It's time to celebrate the anniversary of provisioning this development environment :tada:!",
      inAYear,
    ),
    scheduled(
      2,
      IAGO,
      'private',
      [IAGO],
      '',
      "Note to self: It's been a while since you've provisioned this development environment.",
      inAYear,
    ),
    ...classic.scheduled_messages.map((s, i) =>
      scheduled(
        3 + i,
        USER.get(s.sender_id)!,
        s.type,
        typeof s.to === 'number' ? CLASSIC_CHANNEL.get(s.to)! : s.to.map((u) => USER.get(u)!),
        s.topic,
        s.content,
        s.scheduled_delivery_timestamp,
      ),
    ),
  ];
  state.saved_snippets = classic.saved_snippets.map((s) => ({ ...s, user_id: USER.get(s.user_id)! }));
  state.push_devices = classic.push_devices.map((d) => ({ ...d, user_id: USER.get(d.user_id)! }));
}

main();
