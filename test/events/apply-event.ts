// A client's side of the event system, as the real server's apply_event does it: keeps the
// state POST /register gave up to date with the events of the queue. Only the sections the
// event-application property test (test/fuzz/register-events.test.ts) registers for.
type Obj = Record<string, any>;

const byStream = (id: number) => (s: Obj) => s.stream_id === id;

/** Unread messages in a form that is easy to update: message ID -> where it is. */
export interface RawUnread {
  where: Map<number, string>;
  mentions: Set<number>;
}

export function rawUnread(unread: Obj): RawUnread {
  const where = new Map<number, string>();
  for (const p of unread.pms) for (const id of p.unread_message_ids) where.set(id, `pm:${p.other_user_id}`);
  for (const s of unread.streams)
    for (const id of s.unread_message_ids) where.set(id, `stream:${s.stream_id}:${s.topic}`);
  for (const h of unread.huddles) for (const id of h.unread_message_ids) where.set(id, `huddle:${h.user_ids_string}`);
  return { where, mentions: new Set(unread.mentions) };
}

function conversationOf(
  userId: number,
  message: { type: string; stream_id?: number; topic?: string; user_ids?: number[] },
): string {
  if (message.type === 'stream') return `stream:${message.stream_id}:${message.topic}`;
  const others = (message.user_ids ?? []).filter((id) => id !== userId);
  if (others.length <= 1) return `pm:${others[0] ?? userId}`;
  return `huddle:${[...others, userId].sort((a, b) => a - b).join(',')}`;
}

export function applyEvent(state: Obj, raw: RawUnread, event: Obj, userId: number): void {
  switch (event.type) {
    case 'message': {
      const m = event.message;
      state.max_message_id = Math.max(state.max_message_id, m.id);
      const flags: string[] = event.flags ?? [];
      const userIds = m.type === 'private' ? (m.display_recipient as Obj[]).map((r) => r.id) : [];
      if (!flags.includes('read')) {
        raw.where.set(
          m.id,
          conversationOf(userId, { type: m.type, stream_id: m.stream_id, topic: m.subject, user_ids: userIds }),
        );
        if (flags.includes('mentioned')) raw.mentions.add(m.id);
      }
      // The first message of a channel without one: the real server's apply_event sets it here.
      if (m.type === 'stream') {
        for (const sub of state.subscriptions ?? [])
          if (sub.stream_id === m.stream_id && sub.first_message_id === null) sub.first_message_id = m.id;
      }
      if (m.type === 'private' && state.recent_private_conversations) {
        const others = userIds.filter((id) => id !== userId).sort((a, b) => a - b);
        const list = state.recent_private_conversations.filter((c: Obj) => c.user_ids.join(',') !== others.join(','));
        list.push({ max_message_id: m.id, user_ids: others });
        state.recent_private_conversations = list.sort((a: Obj, b: Obj) => b.max_message_id - a.max_message_id);
      }
      break;
    }
    case 'update_message_flags': {
      if (event.flag === 'read' && event.op === 'add' && event.all) {
        // POST /mark_all_as_read lists no IDs: everything is read.
        raw.where.clear();
        raw.mentions.clear();
      } else if (event.flag === 'read' && event.op === 'add') {
        for (const id of event.messages) {
          raw.where.delete(id);
          raw.mentions.delete(id);
        }
      } else if (event.flag === 'read' && event.op === 'remove') {
        for (const [id, d] of Object.entries<Obj>(event.message_details ?? {})) {
          raw.where.set(Number(id), conversationOf(userId, d as any));
          if (d.mentioned) raw.mentions.add(Number(id));
        }
      } else if (event.flag === 'starred') {
        const set = new Set<number>(state.starred_messages);
        for (const id of event.messages)
          if (event.op === 'add') set.add(id);
          else set.delete(id);
        state.starred_messages = [...set].sort((a, b) => a - b);
      }
      break;
    }
    case 'subscription':
      applySubscription(state, event, userId);
      break;
    case 'stream':
      if (event.op === 'delete') {
        const gone = new Set<number>(event.stream_ids ?? event.streams.map((s: Obj) => s.stream_id));
        for (const k of ['subscriptions', 'unsubscribed', 'never_subscribed'])
          state[k] = state[k].filter((s: Obj) => !gone.has(s.stream_id));
      } else if (event.op === 'update') {
        // One property of the channel, wherever the client lists it (first_message_id, ...).
        for (const k of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
          for (const s of state[k] ?? []) if (s.stream_id === event.stream_id) s[event.property] = event.value;
        }
      }
      break;
    case 'realm_user':
      applyRealmUser(state, event);
      break;
    case 'user_group':
      applyUserGroup(state, event);
      break;
    case 'delete_message':
      // The bulk form (bulk_message_deletion): the messages leave unread, mentions and starred.
      for (const id of event.message_ids ?? [event.message_id]) {
        raw.where.delete(id);
        raw.mentions.delete(id);
        if (state.starred_messages) state.starred_messages = state.starred_messages.filter((s: number) => s !== id);
      }
      break;
    case 'user_topic': {
      // Topics compare without case; the event spells the topic as the request did.
      const same = (t: Obj) =>
        t.stream_id === event.stream_id && t.topic_name.toLowerCase() === event.topic_name.toLowerCase();
      state.user_topics = state.user_topics.filter((t: Obj) => !same(t));
      if (event.visibility_policy !== 0) {
        const { stream_id, topic_name, last_updated, visibility_policy } = event;
        state.user_topics.push({ stream_id, topic_name, last_updated, visibility_policy });
      }
      break;
    }
    case 'presence':
      // The modern form (simplified_presence_events): the users' new times.
      Object.assign(state.presences, event.presences);
      break;
    case 'user_settings':
      state.user_settings[event.property] = event.value;
      break;
    // The legacy forms, for clients without user_settings_object: the settings as top-level keys.
    case 'update_display_settings':
      if (event.setting_name in state) state[event.setting_name] = event.setting;
      break;
    case 'update_global_notifications':
      if (event.notification_name in state) state[event.notification_name] = event.setting;
      break;
    // These carry the user's whole list.
    case 'alert_words':
      state.alert_words = event.alert_words;
      break;
    case 'muted_users':
      state.muted_users = event.muted_users;
      break;
    // The legacy list of muted topics, whole, to queues that did not ask for user_topic.
    case 'muted_topics':
      state.muted_topics = event.muted_topics;
      break;
    case 'user_status': {
      const key = String(event.user_id);
      const status: Obj = state.user_status[key] ?? {};
      if (event.away !== undefined) {
        if (event.away) status.away = true;
        else delete status.away;
      }
      if (event.status_text !== undefined) {
        if (event.status_text) status.status_text = event.status_text;
        else delete status.status_text;
      }
      if (event.emoji_name !== undefined) {
        if (event.emoji_name)
          Object.assign(status, {
            emoji_name: event.emoji_name,
            emoji_code: event.emoji_code,
            reaction_type: event.reaction_type,
          });
        else {
          delete status.emoji_name;
          delete status.emoji_code;
          delete status.reaction_type;
        }
      }
      if (Object.keys(status).length) state.user_status[key] = status;
      else delete state.user_status[key];
      break;
    }
    case 'realm':
      applyRealm(state, event);
      break;
    case 'realm_linkifiers':
      state.realm_linkifiers = structuredClone(event.realm_linkifiers);
      break;
    // The whole list of custom emoji, deactivated ones included.
    case 'realm_emoji':
      state.realm_emoji = structuredClone(event.realm_emoji);
      break;
    case 'realm_bot':
      applyRealmBot(state, event);
      break;
    case 'default_streams':
      state.realm_default_streams = [...event.default_streams];
      break;
    case 'custom_profile_fields':
      state.custom_profile_fields = structuredClone(event.fields);
      break;
    case 'default_stream_groups':
      state.realm_default_stream_groups = structuredClone(event.default_stream_groups);
      break;
    case 'realm_playgrounds':
      state.realm_playgrounds = structuredClone(event.realm_playgrounds);
      break;
    case 'realm_domains':
      applyRealmDomains(state, event);
      break;
    case 'realm_user_settings_defaults':
      if (state.realm_user_settings_defaults) state.realm_user_settings_defaults[event.property] = event.value;
      break;
    // realm_export and realm_export_consent change no register section.
    case 'device':
      applyDevice(state, event);
      break;
    // FL 406-467: a registration's state, by the client's push_account_id.
    case 'push_device':
      if (state.push_devices)
        state.push_devices[String(event.push_account_id)] = {
          status: event.status,
          error_code: event.error_code ?? null,
        };
      break;
    case 'navigation_view':
      applyNavigationView(state, event);
      break;
    case 'channel_folder':
      applyChannelFolder(state, event);
    // Tells clients to fetch GET /invites again: nothing of the register state changes.
    case 'invites_changed':
      break;
    default:
      break;
  }
}

/** The accepted e-mail domains: add appends, change replaces by domain, remove drops by domain. */
function applyRealmDomains(state: Obj, event: Obj): void {
  if (!state.realm_domains) return;
  const domains: Obj[] = state.realm_domains;
  if (event.op === 'add') domains.push({ ...event.realm_domain });
  else if (event.op === 'change')
    state.realm_domains = domains.map((d) => (d.domain === event.realm_domain.domain ? { ...event.realm_domain } : d));
  else if (event.op === 'remove') state.realm_domains = domains.filter((d) => d.domain !== event.domain);
}

/** One user's navigation views, by fragment: add appends, update merges `data`, remove drops. */
function applyNavigationView(state: Obj, event: Obj): void {
  const views: Obj[] = state.navigation_views;
  if (event.op === 'add') views.push(structuredClone(event.navigation_view));
  else if (event.op === 'update') Object.assign(views.find((v) => v.fragment === event.fragment) ?? {}, event.data);
  else if (event.op === 'remove') state.navigation_views = views.filter((v) => v.fragment !== event.fragment);
}

/** The organization's folders: add appends, update merges `data`, reorder sorts by the IDs given (order follows the position). */
function applyChannelFolder(state: Obj, event: Obj): void {
  const folders: Obj[] = state.channel_folders;
  if (event.op === 'add') folders.push(structuredClone(event.channel_folder));
  else if (event.op === 'update')
    Object.assign(folders.find((f) => f.id === event.channel_folder_id) ?? {}, event.data);
  else if (event.op === 'reorder') {
    const position = new Map<number, number>(event.order.map((id: number, i: number) => [id, i]));
    for (const f of folders) f.order = position.get(f.id) ?? f.order;
    folders.sort((a, b) => a.order - b.order);
  }
}

/** Organization settings: `update` names one, `update_dict` carries several in `data`. */
function applyRealm(state: Obj, event: Obj): void {
  const changed: Obj =
    event.op === 'update_dict' ? event.data : event.op === 'update' ? { [event.property]: event.value } : {};
  for (const [name, value] of Object.entries(changed)) {
    state[`realm_${name}`] = value;
    // The deprecated boolean follows the policy that replaced it.
    if (name === 'message_edit_history_visibility_policy') state.realm_allow_edit_history = value !== 'none';
  }
}

function applySubscription(state: Obj, event: Obj, userId: number): void {
  const lists = ['subscriptions', 'unsubscribed', 'never_subscribed'];
  switch (event.op) {
    case 'add':
      for (const sub of event.subscriptions) {
        state.unsubscribed = state.unsubscribed.filter((s: Obj) => s.stream_id !== sub.stream_id);
        state.never_subscribed = state.never_subscribed.filter((s: Obj) => s.stream_id !== sub.stream_id);
        state.subscriptions.push(structuredClone(sub));
      }
      break;
    case 'remove':
      for (const { stream_id } of event.subscriptions) {
        const sub = state.subscriptions.find(byStream(stream_id));
        if (!sub) continue;
        state.subscriptions = state.subscriptions.filter((s: Obj) => s.stream_id !== stream_id);
        if (sub.subscribers) sub.subscribers = sub.subscribers.filter((id: number) => id !== userId);
        if (typeof sub.subscriber_count === 'number') sub.subscriber_count -= 1;
        state.unsubscribed.push(sub);
      }
      break;
    case 'update': {
      const sub = state.subscriptions.find(byStream(event.stream_id));
      if (!sub) break;
      sub[event.property] = event.value;
      if (event.property === 'is_muted') sub.in_home_view = !event.value;
      if (event.property === 'in_home_view') sub.is_muted = !event.value;
      break;
    }
    case 'peer_add':
    case 'peer_remove':
      for (const k of lists) {
        for (const s of state[k]) {
          if (!event.stream_ids.includes(s.stream_id) || !s.subscribers) continue;
          const set = new Set<number>(s.subscribers);
          for (const id of event.user_ids)
            if (event.op === 'peer_add') set.add(id);
            else set.delete(id);
          if (typeof s.subscriber_count === 'number') s.subscriber_count += set.size - s.subscribers.length;
          s.subscribers = [...set].sort((a, b) => a - b);
        }
      }
      break;
    default:
      break;
  }
}

/** realm_user_groups, for a client without include_deactivated_groups (it gets add/remove instead). */
function applyUserGroup(state: Obj, event: Obj): void {
  const groups: Obj[] = state.realm_user_groups;
  const group = groups.find((g) => g.id === event.group_id);
  switch (event.op) {
    case 'add':
      groups.push(structuredClone(event.group));
      break;
    case 'remove':
      state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
      break;
    case 'update':
      if (group) Object.assign(group, structuredClone(event.data));
      break;
    case 'add_members':
      if (group) group.members = [...group.members, ...event.user_ids];
      break;
    case 'remove_members':
      if (group) group.members = group.members.filter((id: number) => !event.user_ids.includes(id));
      break;
    case 'add_subgroups':
      if (group) group.direct_subgroup_ids = [...group.direct_subgroup_ids, ...event.direct_subgroup_ids];
      break;
    case 'remove_subgroups':
      if (group)
        group.direct_subgroup_ids = group.direct_subgroup_ids.filter(
          (id: number) => !event.direct_subgroup_ids.includes(id),
        );
      break;
    default:
      break;
  }
}

/**
 * The bots the user sees in settings: `add` a whole bot, `update` changed fields, `delete` one
 * that left them. A bot has one service; an update of it carries the fields that changed
 * (`config_data` alone, or the outgoing webhook's three), merged into it as the web app does.
 */
function applyRealmBot(state: Obj, event: Obj): void {
  if (!state.realm_bots) return;
  if (event.op === 'add') state.realm_bots.push(structuredClone(event.bot));
  else if (event.op === 'delete' || event.op === 'remove')
    state.realm_bots = state.realm_bots.filter((b: Obj) => b.user_id !== event.bot.user_id);
  else if (event.op === 'update') {
    const bot = state.realm_bots.find((b: Obj) => b.user_id === event.bot.user_id);
    if (!bot) return;
    const { services, ...rest } = event.bot;
    Object.assign(bot, structuredClone(rest));
    if (services)
      bot.services = bot.services.length
        ? [{ ...bot.services[0], ...structuredClone(services[0]) }]
        : structuredClone(services);
  }
}

/** Logged-in devices (FL 468): `add` one with no push registration, `update` changed fields, `remove` one. */
function applyDevice(state: Obj, event: Obj): void {
  if (!state.devices) return;
  const key = String(event.device_id);
  if (event.op === 'add') {
    state.devices[key] = {
      push_key_id: null,
      push_token_id: null,
      pending_push_token_id: null,
      push_token_last_updated_timestamp: null,
      push_registration_error_code: null,
    };
  } else if (event.op === 'remove') {
    delete state.devices[key];
  } else if (event.op === 'update' && state.devices[key]) {
    const { id: _id, type: _type, op: _op, device_id: _device, ...changed } = event;
    Object.assign(state.devices[key], changed);
  }
}

/** register's top-level fields about the client's own account that a `realm_user` `update` changes. */
const OWN_IDENTITY = ['email', 'delivery_email', 'full_name', 'avatar_source', 'avatar_url', 'avatar_url_medium'];

/**
 * The people of the organization: `add` a new one, `update` changed fields. A deactivated user
 * moves to realm_non_active_users and leaves what lists active users only: channel
 * subscribers (and their counts), user group members (FL 303) and presences.
 */
function applyRealmUser(state: Obj, event: Obj): void {
  const person = event.person;
  if (event.op === 'add') {
    state.realm_users?.push(structuredClone(person));
    return;
  }
  if (event.op === 'remove') {
    if (state.realm_users) state.realm_users = state.realm_users.filter((u: Obj) => u.user_id !== person.user_id);
    return;
  }
  if (event.op !== 'update') return;
  const { user_id: userId, is_active: isActive, new_email: newEmail, ...changed } = person;
  // new_email is the person's new API email (`email`).
  if (newEmail !== undefined) changed.email = newEmail;
  const listed = [...(state.realm_users ?? []), ...(state.realm_non_active_users ?? [])].find(
    (u: Obj) => u.user_id === userId,
  );
  if (listed) Object.assign(listed, changed);
  // The client's own identity is also in register's top-level fields.
  if (userId === state.user_id) {
    for (const key of OWN_IDENTITY) if (changed[key] !== undefined && key in state) state[key] = changed[key];
  }
  if (isActive === undefined) return;
  if (listed && state.realm_users) {
    const [from, to] = isActive ? ['realm_non_active_users', 'realm_users'] : ['realm_users', 'realm_non_active_users'];
    state[from] = state[from].filter((u: Obj) => u.user_id !== userId);
    state[to].push(listed);
  }
  if (isActive) return;
  for (const k of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
    for (const s of state[k] ?? []) {
      if (!s.subscribers?.includes(userId)) continue;
      s.subscribers = s.subscribers.filter((id: number) => id !== userId);
      if (typeof s.subscriber_count === 'number') s.subscriber_count -= 1;
    }
  }
  for (const g of state.realm_user_groups ?? []) g.members = g.members.filter((id: number) => id !== userId);
  if (state.presences) delete state.presences[String(userId)];
}
