// The custom profile field types of the real server, stated once: a field's `type` is one of
// these IDs, and POST /register lists them by constant name (custom_profile_field_types). The
// field operations, the checks of users' values and the register state all read this table.

export const PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
} as const;

type TypeName = keyof typeof PROFILE_FIELD_TYPES;

/** A type's ID by its constant name: FIELD_TYPE.SELECT is 3. */
export const FIELD_TYPE = Object.fromEntries(Object.entries(PROFILE_FIELD_TYPES).map(([name, t]) => [name, t.id])) as {
  readonly [K in TypeName]: (typeof PROFILE_FIELD_TYPES)[K]['id'];
};
