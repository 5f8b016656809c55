// Default channel groups: named sets of channels offered at sign-up. Administrators create,
// rename, describe, fill and delete them with the real server's checks and wording; every user but
// guests then receives every group again (`default_stream_groups`), with the groups' channel IDs
// (or, for queues registered before FL 330, the channels themselves).
import { badRequest } from '../../errors.js';
import type { ParamsOf, WorldCtx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { Stream, User } from '../../store/state.js';
import { isGuest, requireAdmin } from '../users/roles.js';
import { activeUserIds } from '../users/access.js';
import { defaultStreamGroupDicts } from './register-state.js';
import { publishByForm } from '../events/publish.js';
import { hasContentAccess, streamByName } from './access.js';

type Group = NonNullable<Store['realm']['default_stream_groups']>[number];

const NAME_MAX = 60;

function save(world: WorldCtx, groups: Group[]): void {
  const { store } = world;
  store.updateRealm({ default_stream_groups: groups });
  const audience = activeUserIds(store).filter((id) => !isGuest(store.users.get(id)!));
  const event = {
    type: 'default_stream_groups',
    default_stream_groups: defaultStreamGroupDicts(store, 'ids', world.clock.now()),
  };
  // Queues registered before FL 330 get the groups' channels themselves (DefaultChannelGroup.streams).
  publishByForm(world, audience, event, { schema: 'DefaultChannelGroup', field: 'streams', newest: 'ids' }, (form) => ({
    type: 'default_stream_groups',
    default_stream_groups: defaultStreamGroupDicts(store, form, world.clock.now()),
  }));
}

const groupsOf = (store: Store): Group[] => store.realm.default_stream_groups ?? [];

function groupOf(store: Store, id: number): Group {
  const group = groupsOf(store).find((g) => g.id === id);
  if (!group) throw badRequest(`Default channel group with id '${id}' does not exist.`);
  return group;
}

/** The real server's access_stream_by_name: an active channel whose content the caller may read. */
function streamsNamed(store: Store, actor: User, names: string[]): Stream[] {
  return names.map((name) => {
    const stream = streamByName(store, name);
    if (!stream || stream.is_archived || !hasContentAccess(store, actor, stream))
      throw badRequest(`Invalid channel name '${name}'`);
    return stream;
  });
}

function checkNotDefault(store: Store, streams: Stream[], groupName: string): void {
  for (const s of streams) {
    if (store.realm.default_stream_ids.includes(s.stream_id))
      throw badRequest(`'${s.name}' is a default channel and cannot be added to '${groupName}'`);
  }
}

function checkName(name: string): void {
  if (name.trim() === '') throw badRequest(`Invalid default channel group name '${name}'`);
  if (name.length > NAME_MAX) throw badRequest(`Default channel group name too long (limit: ${NAME_MAX} characters)`);
  if (name.includes('\u0000'))
    throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}

const taken = (name: string) => badRequest(`Default channel group '${name}' already exists`);

export function createDefaultStreamGroup(
  world: WorldCtx,
  actor: User,
  input: ParamsOf<'create-default-stream-group'>,
): void {
  requireAdmin(actor);
  const { store } = world;
  const streams = streamsNamed(store, actor, input.stream_names);
  checkNotDefault(store, streams, input.group_name);
  checkName(input.group_name);
  if (groupsOf(store).some((g) => g.name === input.group_name)) throw taken(input.group_name);
  const id = Math.max(0, ...groupsOf(store).map((g) => g.id)) + 1;
  const ids = [...new Set(streams.map((s) => s.stream_id))];
  save(world, [...groupsOf(store), { id, name: input.group_name, description: input.description, streams: ids }]);
}

export function updateDefaultStreamGroup(
  world: WorldCtx,
  actor: User,
  input: ParamsOf<'update-default-stream-group-info'>,
): void {
  requireAdmin(actor);
  const { store } = world;
  if (!input.new_group_name && !input.new_description)
    throw badRequest('You must pass "new_description" or "new_group_name".');
  const group = groupOf(store, input.group_id);
  if (input.new_group_name !== undefined) {
    const name = input.new_group_name;
    if (group.name === name) throw badRequest(`This default channel group is already named '${name}'`);
    if (groupsOf(store).some((g) => g.name === name)) throw taken(name);
    save(
      world,
      groupsOf(store).map((g) => (g.id === group.id ? { ...g, name } : g)),
    );
  }
  if (input.new_description !== undefined) {
    const description = input.new_description;
    save(
      world,
      groupsOf(store).map((g) => (g.id === group.id ? { ...g, description } : g)),
    );
  }
}

export function updateDefaultStreamGroupStreams(
  world: WorldCtx,
  actor: User,
  input: ParamsOf<'update-default-stream-group-streams'>,
): void {
  requireAdmin(actor);
  const { store } = world;
  const group = groupOf(store, input.group_id);
  const streams = streamsNamed(store, actor, input.stream_names);
  let ids = [...group.streams];
  if (input.op === 'add') {
    checkNotDefault(store, streams, group.name);
    for (const s of streams) {
      if (ids.includes(s.stream_id))
        throw badRequest(`Channel '${s.name}' is already present in default channel group '${group.name}'`);
      ids.push(s.stream_id);
    }
  } else if (input.op === 'remove') {
    for (const s of streams) {
      if (!ids.includes(s.stream_id))
        throw badRequest(`Channel '${s.name}' is not present in default channel group '${group.name}'`);
    }
    const gone = new Set(streams.map((s) => s.stream_id));
    ids = ids.filter((id) => !gone.has(id));
  } else {
    throw badRequest('Invalid value for "op". Specify one of "add" or "remove".');
  }
  save(
    world,
    groupsOf(store).map((g) => (g.id === group.id ? { ...g, streams: ids } : g)),
  );
}

export function removeDefaultStreamGroup(
  world: WorldCtx,
  actor: User,
  input: ParamsOf<'remove-default-stream-group'>,
): void {
  requireAdmin(actor);
  const group = groupOf(world.store, input.group_id);
  save(
    world,
    groupsOf(world.store).filter((g) => g.id !== group.id),
  );
}
