// `record-to-fixture`: a recording (recorder.ts) turned into state the mock can then change. The
// parts of state the mock models and the API shows whole: users, channels, subscriptions and
// messages, taken from the recorded success answers and laid over a base fixture (the embedded one
// by default), by ID. A new row starts as a copy of a base row of its kind, so it has every field
// the state needs; only the fields below come from the recording (the API's form of the others,
// group settings for one, is not the state's).
import { randomBytes } from 'node:crypto';
import { checkState } from '../store/fixture.js';
import { STATE_RULES } from '../domain/state-rules.js';
import type { State } from '../store/state.js';
import type { Rule, Scenario } from '../control/scenarios/types.js';

type Row = Record<string, any>;
const USER_FIELDS = [
  'email',
  'delivery_email',
  'full_name',
  'role',
  'is_active',
  'is_bot',
  'bot_type',
  'bot_owner_id',
  'date_joined',
  'avatar_version',
  'timezone',
];
const STREAM_FIELDS = [
  'name',
  'description',
  'rendered_description',
  'date_created',
  'invite_only',
  'is_web_public',
  'history_public_to_subscribers',
  'message_retention_days',
  'is_archived',
];
const SUB_FIELDS = [
  'color',
  'is_muted',
  'pin_to_top',
  'desktop_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
  'push_notifications',
  'audible_notifications',
];

export interface FixtureCounts {
  users: number;
  streams: number;
  subscriptions: number;
  messages: number;
}

/** The base state with the recording's rows laid over it; throws a FixtureError when the result is not a state. */
export function recordingToFixture(
  recording: Scenario,
  base: State,
  source: string,
): { state: State; counts: FixtureCounts } {
  const state = structuredClone(base) as unknown as Record<string, Row[]>;
  const seen = {
    users: new Set<number>(),
    streams: new Set<number>(),
    subscriptions: new Set<string>(),
    messages: new Set<number>(),
  };
  const answers = (recording.rules ?? []).filter(
    (r) => typeof r.respond === 'object' && r.respond.status === 200 && r.respond.body,
  );
  const body = (r: Rule) => (r.respond as { body: Row }).body;
  const userId = (email: unknown) =>
    state.users.find((u) => typeof email === 'string' && u.email.toLowerCase() === email.toLowerCase())?.user_id as
      number | undefined;

  const putUser = (u: Row) => {
    if (!Number.isInteger(u?.user_id)) return;
    // What the API never shows is made up for a new user: a fresh API key and password (the
    // fixture's schema requires both), an empty status, and no presence until a client reports one.
    const row = upsert(state.users, 'user_id', u.user_id, (t) => ({
      ...t,
      api_key: randomBytes(24).toString('base64url').slice(0, 32),
      password: randomBytes(12).toString('base64url'),
      presence: undefined,
      status: { status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' },
    }));
    for (const f of USER_FIELDS) if (f in u) row[f] = u[f];
    seen.users.add(u.user_id);
  };
  for (const r of answers) {
    if (r.operation === 'get-users') for (const u of body(r).members ?? []) putUser(u);
    if (r.operation === 'get-own-user' || r.operation === 'get-user' || r.operation === 'get-user-by-email')
      putUser(r.operation === 'get-own-user' ? body(r) : body(r).user);
  }
  for (const r of answers) {
    const rows: Row[] =
      r.operation === 'get-subscriptions'
        ? (body(r).subscriptions ?? [])
        : r.operation === 'get-streams'
          ? (body(r).streams ?? [])
          : [];
    for (const s of rows) {
      if (!Number.isInteger(s?.stream_id)) continue;
      const row = upsert(state.streams, 'stream_id', s.stream_id, (t) => ({ ...t }));
      for (const f of STREAM_FIELDS) if (f in s) row[f] = s[f];
      seen.streams.add(s.stream_id);
      const uid = userId(r.user);
      if (r.operation !== 'get-subscriptions' || uid === undefined) continue;
      let sub = state.subscriptions.find((x) => x.user_id === uid && x.stream_id === s.stream_id);
      if (!sub) state.subscriptions.push((sub = { ...state.subscriptions[0], user_id: uid, stream_id: s.stream_id }));
      for (const f of SUB_FIELDS) if (f in s) sub[f] = s[f];
      seen.subscriptions.add(`${uid}/${s.stream_id}`);
    }
  }
  for (const r of answers) {
    const rows: Row[] =
      r.operation === 'get-messages'
        ? (body(r).messages ?? [])
        : r.operation === 'get-message'
          ? [body(r).message]
          : [];
    const uid = userId(r.user);
    for (const m of rows) {
      if (!Number.isInteger(m?.id)) continue;
      const row = upsert(state.messages, 'id', m.id, (t) => ({ ...t, flags: {}, reactions: [] }));
      const stream = m.type === 'stream';
      // Answers give rendered HTML unless the client asked apply_markdown=false: the source is then what was recorded.
      const html = r.params?.apply_markdown !== false;
      Object.assign(row, {
        sender_id: m.sender_id,
        type: stream ? 'stream' : 'private',
        stream_id: stream ? m.stream_id : null,
        topic: stream ? m.subject : '',
        recipient_ids: stream
          ? []
          : (m.display_recipient ?? []).map((x: Row) => x.id).sort((a: number, b: number) => a - b),
        content: m.content,
        ...(html ? { rendered_content: m.content } : {}),
        timestamp: m.timestamp,
        client: m.client ?? row.client,
        reactions: (m.reactions ?? []).map((x: Row) => ({
          emoji_name: x.emoji_name,
          emoji_code: x.emoji_code,
          reaction_type: x.reaction_type,
          user_id: x.user_id,
        })),
      });
      if (uid !== undefined && Array.isArray(m.flags)) row.flags = { ...row.flags, [uid]: m.flags };
      seen.messages.add(m.id);
    }
  }
  // (copies of base rows may carry fields a new row must not have: undefined ones are dropped)
  const result = JSON.parse(JSON.stringify(state));
  const counts = {
    users: seen.users.size,
    streams: seen.streams.size,
    subscriptions: seen.subscriptions.size,
    messages: seen.messages.size,
  };
  return { state: checkState(result, source, STATE_RULES), counts };
}

/** The row of `rows` with this ID, made (from a copy of the first row) when there is none. */
function upsert(rows: Row[], key: string, id: number, fresh: (template: Row) => Row): Row {
  const found = rows.find((r) => r[key] === id);
  if (found) return found;
  const row = { ...fresh(structuredClone(rows[0] ?? {})), [key]: id };
  rows.push(row);
  return row;
}
