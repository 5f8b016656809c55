// The rules between rows that the state's schema (state-schema.ts) cannot say: the fields the
// store indexes by (see Store.load) must be unique where the store needs them unique. Types and
// required fields are the schema's. A state that breaks this is refused with the row named,
// instead of indexing one row over another.

type Field = [name: string, type: 'number' | 'string' | 'boolean'];

/**
 * Per collection: the fields of its key (together unique), fields unique on their own, other
 * fields unique together (`together`), and whether text compares without case (as the store's
 * indexes do).
 */
const ROW_KEYS: Record<string, { key: Field[]; unique?: Field[]; together?: Field[]; caseless?: boolean }> = {
  users: { key: [['user_id', 'number']], unique: [['email', 'string']], caseless: true },
  streams: { key: [['stream_id', 'number']], unique: [['name', 'string']], caseless: true },
  subscriptions: {
    key: [
      ['user_id', 'number'],
      ['stream_id', 'number'],
    ],
  },
  user_groups: { key: [['id', 'number']] },
  channel_folders: { key: [['id', 'number']] },
  linkifiers: { key: [['id', 'number']] },
  realm_emoji: { key: [['id', 'number']] },
  messages: { key: [['id', 'number']] },
  user_topics: {
    key: [
      ['user_id', 'number'],
      ['stream_id', 'number'],
      ['topic', 'string'],
    ],
    caseless: true,
  },
  scheduled_messages: { key: [['scheduled_message_id', 'number']] },
  reminders: { key: [['reminder_id', 'number']] },
  saved_snippets: { key: [['id', 'number']] },
  navigation_views: {
    key: [
      ['user_id', 'number'],
      ['fragment', 'string'],
    ],
  },
  remote_push_devices: {
    key: [
      ['server_uuid', 'string'],
      ['realm_uuid', 'string'],
      ['token_id', 'string'],
    ],
  },
  drafts: { key: [['id', 'number']] },
  push_devices: { key: [['device_id', 'number']] },
  sent_push_notifications: { key: [['id', 'number']] },
  former_subscriptions: {
    key: [
      ['user_id', 'number'],
      ['stream_id', 'number'],
    ],
  },
  bot_storage: {
    key: [
      ['user_id', 'number'],
      ['key', 'string'],
    ],
  },
  attachments: { key: [['id', 'number']], unique: [['path_id', 'string']] },
  user_avatars: { key: [['path_id', 'string']], unique: [['user_id', 'number']] },
  // Email invitations and links each have their own ID sequence (the store's kindId index).
  invites: {
    key: [['key', 'string']],
    together: [
      ['is_multiuse', 'boolean'],
      ['id', 'number'],
    ],
  },
};

/** The first problem between the rows of `state` (already checked against the schema), or null. */
export function rowProblem(state: Record<string, unknown>): string | null {
  for (const [name, spec] of Object.entries(ROW_KEYS)) {
    const rows = state[name] as unknown[];
    if (!Array.isArray(rows)) continue;
    // Worked out once per collection, not per row: a large state has a hundred thousand messages.
    const norm = (v: unknown) => (spec.caseless && typeof v === 'string' ? v.toLowerCase() : String(v));
    const keyName = spec.key.map(([f]) => f).join('+');
    const keyOf =
      spec.key.length === 1
        ? (r: Record<string, unknown>) => norm(r[spec.key[0][0]])
        : (r: Record<string, unknown>) => spec.key.map(([f]) => norm(r[f])).join(':');
    const checks = [
      { what: keyName, valueOf: keyOf, seen: new Set<string>() },
      ...(spec.unique ?? []).map(([field]) => ({
        what: field,
        valueOf: (r: Record<string, unknown>) => norm(r[field]),
        seen: new Set<string>(),
      })),
      ...(spec.together
        ? [
            {
              what: spec.together.map(([f]) => f).join('+'),
              valueOf: (r: Record<string, unknown>) => spec.together!.map(([f]) => norm(r[f])).join(':'),
              seen: new Set<string>(),
            },
          ]
        : []),
    ];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const r = row as Record<string, unknown>;
      for (const check of checks) {
        const value = check.valueOf(r);
        if (check.seen.has(value)) return `"${name}"[${i}] repeats the ${check.what} of an earlier row (${value})`;
        check.seen.add(value);
      }
    }
  }
  return null;
}
