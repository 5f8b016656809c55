// The State panel's sections for people and places: users, channels with their subscribers and
// settings, and user groups with members and subgroups.
import { h, table, longTime } from './dom.js';

const ROLES = { 100: 'Owner', 200: 'Administrator', 300: 'Moderator', 400: 'Member', 600: 'Guest' };

/** Lookups shared by the sections. */
export function indexState(state) {
  const users = new Map(state.users.map((u) => [u.user_id, u]));
  const groups = new Map(state.user_groups.map((g) => [g.id, g]));
  const streams = new Map(state.streams.map((s) => [s.stream_id, s]));
  return {
    state,
    users,
    groups,
    streams,
    userName: (id) => users.get(id)?.full_name ?? `user ${id}`,
    groupName: (id) => groups.get(id)?.name ?? `group ${id}`,
    streamName: (id) => streams.get(id)?.name ?? `channel ${id}`,
  };
}

const yesNo = (v) => h('span', { class: v ? 'yes' : 'no' }, v ? 'yes' : 'no');
const names = (list) => (list.length ? list.join(', ') : '—');

export function usersSection(ix) {
  const rows = ix.state.users.map((u) => [
    u.full_name,
    h('span', { class: 'mono' }, u.email),
    String(u.user_id),
    (ROLES[u.role] ?? `role ${u.role}`) + (u.is_bot ? ' (bot)' : ''),
    yesNo(u.is_active),
    h('code', { class: 'api-key' }, u.api_key),
  ]);
  return table('Users', ['Name', 'Email', 'ID', 'Role', 'Active', 'API key'], rows, { class: 'users-table' });
}

/** A group-setting value: a group, or an anonymous set of members and subgroups. */
function groupSetting(ix, value) {
  if (typeof value === 'number') return ix.groupName(value);
  if (value && typeof value === 'object') {
    return `members: ${names((value.direct_members ?? []).map(ix.userName))}; groups: ${names((value.direct_subgroups ?? []).map(ix.groupName))}`;
  }
  return JSON.stringify(value);
}

function settingText(ix, key, value) {
  if (key.endsWith('_group')) return groupSetting(ix, value);
  if (key === 'date_created' && typeof value === 'number') return longTime(value * 1000);
  if (key === 'creator_id' && typeof value === 'number') return ix.userName(value);
  if (value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const SHOWN_ELSEWHERE = new Set([
  'stream_id',
  'name',
  'description',
  'rendered_description',
  'invite_only',
  'is_web_public',
  'is_archived',
]);

function channelCard(ix, s) {
  const subscribers = ix.state.subscriptions
    .filter((sub) => sub.stream_id === s.stream_id)
    .map((sub) => ix.userName(sub.user_id))
    .sort();
  const kind = s.is_web_public ? 'web-public' : s.invite_only ? 'private' : 'public';
  const settings = Object.entries(s).filter(([k]) => !SHOWN_ELSEWHERE.has(k));
  return h(
    'article',
    { class: 'card channel', 'aria-labelledby': `channel-${s.stream_id}` },
    h(
      'h4',
      { id: `channel-${s.stream_id}` },
      `#${s.name}`,
      h('span', { class: `tag tag-${kind}` }, kind),
      s.is_archived ? h('span', { class: 'tag tag-archived' }, 'archived') : null,
    ),
    h('p', { class: 'muted' }, `ID ${s.stream_id}${s.description ? ` · ${s.description}` : ''}`),
    h(
      'p',
      {},
      h('strong', {}, `${subscribers.length} subscriber${subscribers.length === 1 ? '' : 's'}: `),
      names(subscribers),
    ),
    h(
      'details',
      {},
      h('summary', {}, 'Settings'),
      h(
        'dl',
        { class: 'settings' },
        settings.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, settingText(ix, k, v)))),
      ),
    ),
  );
}

export function channelsSection(ix) {
  return h(
    'div',
    { class: 'cards' },
    [...ix.state.streams].sort((a, b) => a.name.localeCompare(b.name)).map((s) => channelCard(ix, s)),
  );
}

export function groupsSection(ix) {
  const rows = ix.state.user_groups.map((g) => [
    g.name + (g.deactivated ? ' (deactivated)' : ''),
    String(g.id),
    g.is_system_group ? 'system' : 'named',
    names(g.direct_members.map(ix.userName)),
    names(g.direct_subgroups.map(ix.groupName)),
  ]);
  return table('User groups', ['Name', 'ID', 'Kind', 'Members', 'Subgroups'], rows, { class: 'groups-table' });
}

/** How a device receives notifications: its legacy token, its E2EE registration (token ID, or push_account_id before FL 468), or not at all yet. */
function pushRegistration(d) {
  if (d.token !== undefined) return h('span', { class: 'mono' }, d.token);
  if (d.push_token_id)
    return h(
      'span',
      { class: 'mono' },
      `E2EE, token ID ${d.push_token_id}${d.push_key_id == null ? '' : `, key ${d.push_key_id}`}`,
    );
  if (d.pending_push_token_id) return `E2EE, pending ${d.pending_push_token_id}`;
  if (d.push_account_id !== undefined) return `E2EE, push account ${d.push_account_id}`;
  return 'logged in, not registered for push';
}

/** Push devices: registered by token (APNs, FCM), or logged-in devices with their end-to-end encrypted registration, and the test notifications each got. */
export function devicesSection(ix) {
  const sent = (id) => ix.state.sent_push_notifications.filter((n) => n.device_id === id).length;
  const rows = ix.state.push_devices.map((d) => [
    ix.userName(d.user_id),
    String(d.device_id),
    d.platform ?? '—',
    pushRegistration(d),
    longTime(d.registered_at * 1000),
    String(sent(d.device_id)),
  ]);
  return table(
    'Push devices',
    ['User', 'Device ID', 'Platform', 'Registration', 'Registered', 'Test notifications'],
    rows,
    { class: 'devices-table' },
  );
}
