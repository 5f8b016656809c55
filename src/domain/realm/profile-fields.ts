// The organization's custom profile fields: anyone lists them; administrators create, change,
// delete and reorder them, with the real server's checks and wording. After each change everyone
// receives every field again (`custom_profile_fields`), as from the real server.
import { badRequest } from '../../errors.js';
import type { ParamsOf, WorldCtx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { requireAdmin } from '../users/roles.js';
import { activeUserIds } from '../users/access.js';
import { customProfileFieldState } from './register-state.js';
import { FIELD_TYPE } from './profile-field-types.js';

type Field = NonNullable<Store['realm']['custom_profile_fields']>[number];

const { LONG_TEXT, SELECT, USER, EXTERNAL_ACCOUNT } = FIELD_TYPE;
const NAME_MAX = 40,
  HINT_MAX = 80,
  SUMMARY_MAX = 2;
/** The external account subtypes whose name and hint the server supplies itself. */
const DEFAULT_EXTERNAL: Record<string, { name: string; hint: string }> = {
  github: { name: 'GitHub username', hint: '' },
};

const fieldsOf = (store: Store): Field[] => store.realm.custom_profile_fields ?? [];

/** The fields in display order, in the form clients receive (register, events, GET). */
function profileFieldDicts(store: Store): unknown[] {
  return customProfileFieldState(store).custom_profile_fields as unknown[];
}

function save(world: WorldCtx, fields: Field[]): void {
  world.store.updateRealm({ custom_profile_fields: fields });
  world.events.publish(activeUserIds(world.store), {
    type: 'custom_profile_fields',
    fields: profileFieldDicts(world.store),
  });
}

function fieldOf(store: Store, id: number): Field {
  const field = fieldsOf(store).find((f) => f.id === id);
  if (!field) throw badRequest(`Field id ${id} not found.`);
  return field;
}

const isDefaultExternal = (type: number, data: Record<string, unknown>) =>
  type === EXTERNAL_ACCOUNT && typeof data.subtype === 'string' && data.subtype !== 'custom';

function checkSummaryLimit(store: Store, wanted: boolean | undefined, exceptId?: number): void {
  if (!wanted) return;
  const shown = fieldsOf(store).filter((f) => f.display_in_profile_summary && f.id !== exceptId).length;
  if (shown >= SUMMARY_MAX)
    throw badRequest(`Only ${SUMMARY_MAX} custom profile fields can be displayed in the profile summary.`);
}

function checkFieldData(type: number, data: Record<string, unknown>): void {
  if (type === SELECT) {
    if (Object.keys(data).length < 1) throw badRequest('Field must have at least one choice.');
  } else if (type === EXTERNAL_ACCOUNT) {
    const subtype = data.subtype;
    if (subtype === 'custom') {
      if (typeof data.url_pattern !== 'string' || !data.url_pattern)
        throw badRequest('Custom external account must define URL pattern');
      if (!data.url_pattern.includes('%(username)s')) throw badRequest("URL pattern must contain '%(username)s'.");
    } else if (typeof subtype !== 'string' || !(subtype in DEFAULT_EXTERNAL)) {
      throw badRequest('Invalid external account type');
    }
  }
}

/** The real server's order: field data, then name and hint, then type, then the summary. */
function checkField(name: string, hint: string, type: number, data: Record<string, unknown>, summary: boolean): void {
  checkFieldData(type, data);
  if (!isDefaultExternal(type, data)) {
    if (!name.trim()) throw badRequest('Label cannot be blank.');
    if (hint.length > HINT_MAX) throw badRequest(`hint is too long (limit: ${HINT_MAX} characters)`);
    if (name.length > NAME_MAX) throw badRequest(`name is too long (limit: ${NAME_MAX} characters)`);
  }
  if (!Number.isInteger(type) || type < 1 || type > 8) throw badRequest('Invalid field type.');
  if (summary && (type === LONG_TEXT || type === USER))
    throw badRequest('Field type not supported for display in profile summary.');
}

function checkUniqueName(store: Store, name: string, exceptId?: number): void {
  if (fieldsOf(store).some((f) => f.name === name && f.id !== exceptId))
    throw badRequest('A field with that label already exists.');
}

const storedData = (type: number, data: Record<string, unknown>) =>
  type === SELECT || type === EXTERNAL_ACCOUNT ? JSON.stringify(data) : '';

export function listProfileFields(world: WorldCtx): { custom_fields: unknown[] } {
  return { custom_fields: profileFieldDicts(world.store) };
}

export function createProfileField(
  world: WorldCtx,
  actor: User,
  input: ParamsOf<'create-custom-profile-field'>,
): { id: number } {
  requireAdmin(actor);
  const { store } = world;
  const type = input.field_type;
  const data = (input.field_data ?? {}) as Record<string, unknown>;
  let name = (input.name ?? '').trim();
  let hint = input.hint ?? '';
  const summary = input.display_in_profile_summary ?? false;
  checkSummaryLimit(store, summary);
  checkField(name, hint, type, data, summary);
  if (isDefaultExternal(type, data)) ({ name, hint } = DEFAULT_EXTERNAL[data.subtype as string]);
  checkUniqueName(store, name);
  const id = Math.max(0, ...fieldsOf(store).map((f) => f.id)) + 1;
  const field: Field = {
    id,
    type,
    order: id,
    name,
    hint,
    field_data: isDefaultExternal(type, data) ? JSON.stringify({ subtype: data.subtype }) : storedData(type, data),
    display_in_profile_summary: summary,
    required: input.required ?? false,
    editable_by_user: input.editable_by_user ?? true,
  };
  save(world, [...fieldsOf(store), field]);
  return { id };
}

export function updateProfileField(world: WorldCtx, actor: User, input: ParamsOf<'update-custom-profile-field'>): void {
  requireAdmin(actor);
  const { store } = world;
  const field = fieldOf(store, input.field_id);
  checkSummaryLimit(store, input.display_in_profile_summary, field.id);
  const name = input.name?.trim();
  const data = input.field_data as Record<string, unknown> | undefined;
  const current = field.field_data ? (JSON.parse(field.field_data) as Record<string, unknown>) : {};
  if (isDefaultExternal(field.type, current)) {
    const changes =
      (name !== undefined && name !== field.name) ||
      (input.hint !== undefined && input.hint !== field.hint) ||
      (data !== undefined && JSON.stringify(data) !== JSON.stringify(current));
    if (changes) throw badRequest('Default custom field cannot be updated.');
  }
  const summary = input.display_in_profile_summary ?? field.display_in_profile_summary ?? false;
  checkField(name ?? field.name, input.hint ?? field.hint, field.type, data ?? current, summary);
  if (name !== undefined) checkUniqueName(store, name, field.id);
  const next: Field = { ...field };
  if (name !== undefined) next.name = name;
  if (input.hint !== undefined) next.hint = input.hint;
  if (input.required !== undefined) next.required = input.required;
  if (input.editable_by_user !== undefined) next.editable_by_user = input.editable_by_user;
  if (input.display_in_profile_summary !== undefined)
    next.display_in_profile_summary = input.display_in_profile_summary;
  if (field.type === SELECT || field.type === EXTERNAL_ACCOUNT) {
    if (data !== undefined && field.type === SELECT) {
      // Users who chose an option that is gone lose their value (no event, as on the real server).
      const gone = new Set(Object.keys(current).filter((k) => !(k in data)));
      if (gone.size) dropValues(store, field.id, (value) => gone.has(value));
    }
    if (data !== undefined || field.field_data === '') next.field_data = JSON.stringify(data ?? {});
  }
  save(
    world,
    fieldsOf(store).map((f) => (f.id === field.id ? next : f)),
  );
}

function dropValues(store: Store, fieldId: number, which: (value: string) => boolean): void {
  const key = String(fieldId);
  for (const user of store.users.all()) {
    const entry = user.profile_data?.[key];
    if (!entry || !which(entry.value)) continue;
    const data = { ...user.profile_data };
    delete data[key];
    store.users.update(user, { profile_data: data });
  }
}

export function removeProfileField(world: WorldCtx, actor: User, input: ParamsOf<'remove-custom-profile-field'>): void {
  requireAdmin(actor);
  const field = fieldOf(world.store, input.field_id);
  dropValues(world.store, field.id, () => true);
  save(
    world,
    fieldsOf(world.store).filter((f) => f.id !== field.id),
  );
}

export function reorderProfileFields(
  world: WorldCtx,
  actor: User,
  input: ParamsOf<'reorder-custom-profile-fields'>,
): void {
  requireAdmin(actor);
  const position = new Map<number, number>();
  input.order.forEach((id, i) => position.set(id, i));
  const fields = fieldsOf(world.store);
  if (fields.some((f) => !position.has(f.id))) throw badRequest('Invalid order mapping.');
  save(
    world,
    fields.map((f) => ({ ...f, order: position.get(f.id)! })),
  );
}
