// Custom profile field values, set by an administrator (PATCH /users/{user_id}) or by the user
// (PATCH / DELETE /users/me/profile_data): each value is checked against its field's type as the
// real server does, then only values that differ are stored, each announced with a realm_user
// update. Text fields keep a rendered copy. Users change only the fields editable_by_user.
import { badRequest } from '../../errors.js';
import type { WorldCtx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { renderMarkdown } from '../render/markdown.js';
import { activeUserIds } from './access.js';
import { FIELD_TYPE } from '../realm/profile-field-types.js';
import { isAdmin } from './roles.js';

type Field = NonNullable<Store['realm']['custom_profile_fields']>[number];
export interface ProfileEntry {
  id: number;
  value: string | number[] | null;
}

/** The real server's short and long text limits. */
const TEXT_LIMIT: Record<number, number> = { [FIELD_TYPE.LONG_TEXT]: 500 };
const SHORT_TEXT_LIMIT = 50;
/** Fields whose values are Markdown (the real server's renderable types). */
const RENDERED: ReadonlySet<number> = new Set([FIELD_TYPE.SHORT_TEXT, FIELD_TYPE.LONG_TEXT]);

/** The field, if the actor may change its values (administrators any, others those editable_by_user). */
function fieldById(store: Store, id: number, actor: User): Field {
  const field = store.realm.custom_profile_fields?.find((f) => f.id === id);
  if (!field) throw badRequest(`Field id ${id} not found.`);
  if (!isAdmin(actor) && !field.editable_by_user) {
    throw badRequest('You are not allowed to change this field. Contact an administrator to update it.');
  }
  return field;
}

function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

function isUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

function checkUserIds(store: Store, value: unknown): string {
  if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
  for (const id of value) {
    const user = store.users.get(id);
    if (!user || user.is_system_bot) throw badRequest(`Invalid user ID: ${id}`);
  }
  // Stored as the real server stores it: compact JSON.
  return JSON.stringify(value);
}

/** The value as it is stored (text), once checked against the field. */
function checkValue(store: Store, field: Field, value: string | number[]): string {
  if (field.type === FIELD_TYPE.USER) return checkUserIds(store, value);
  if (typeof value !== 'string') throw badRequest(`${field.name} is not a string`);
  switch (field.type) {
    case FIELD_TYPE.SELECT:
      if (!Object.hasOwn(JSON.parse(field.field_data || '{}'), value)) {
        throw badRequest(`'${value}' is not a valid choice for '${field.name}'.`);
      }
      return value;
    case FIELD_TYPE.DATE:
      if (!isDate(value)) throw badRequest(`${field.name} is not a date`);
      return value;
    case FIELD_TYPE.URL:
      if (!isUrl(value)) throw badRequest(`${field.name} is not a URL`);
      return value;
    default: {
      const limit = TEXT_LIMIT[field.type] ?? SHORT_TEXT_LIMIT;
      if ([...value].length > limit) throw badRequest(`${field.name} is too long (limit: ${limit} characters)`);
      return value;
    }
  }
}

const isEmpty = (value: ProfileEntry['value']) => value === null || value.length === 0;

/** Checks every entry `actor` gives `user`; returns the change to make (run it once every other check passed). */
export function planProfileDataChange(world: WorldCtx, actor: User, user: User, entries: ProfileEntry[]): () => void {
  const { store } = world;
  const removals: number[] = [];
  const sets: Array<{ field: Field; value: string }> = [];
  for (const entry of entries) {
    const field = fieldById(store, entry.id, actor);
    if (isEmpty(entry.value)) removals.push(field.id);
    else sets.push({ field, value: checkValue(store, field, entry.value!) });
  }
  return () => {
    for (const id of removals) setValue(world, user, id, null);
    for (const { field, value } of sets) setValue(world, user, field.id, value, RENDERED.has(field.type));
  };
}

function setValue(world: WorldCtx, user: User, fieldId: number, value: string | null, rendered = false): void {
  const { store } = world;
  const current = store.users.get(user.user_id)!;
  const data = { ...(current.profile_data ?? {}) };
  const key = String(fieldId);
  if (value === null ? !(key in data) : data[key]?.value === value) return;
  const field: Record<string, unknown> = { id: fieldId, value };
  if (value === null) delete data[key];
  else {
    data[key] = rendered ? { value, rendered_value: renderMarkdown(store, value) } : { value };
    if (rendered) field.rendered_value = data[key].rendered_value;
  }
  store.users.update(current, { profile_data: data });
  world.events.publish(activeUserIds(store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, custom_profile_field: field },
  });
}

/** DELETE /users/me/profile_data: cleared one field at a time, as the real server does (a bad ID stops there). */
export function removeOwnProfileData(world: WorldCtx, actor: User, fieldIds: number[]): void {
  for (const id of fieldIds) setValue(world, actor, fieldById(world.store, id, actor).id, null);
}
