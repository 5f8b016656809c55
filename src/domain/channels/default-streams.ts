// The organization's default channels, the ones new users join. Administrators add and remove
// them; every user but guests (who are told there are none) then receives the whole list: IDs, or
// for a queue registered before FL 330 the channels themselves (DefaultChannels in the description).
import { badRequest } from '../../errors.js';
import type { ParamsOf, WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { requireAdmin, isGuest } from '../users/roles.js';
import { activeUserIds } from '../users/access.js';
import { defaultChannelList } from './register-state.js';
import { publishByForm } from '../events/publish.js';
import { accessStreamContentById, invalidChannelId } from './access.js';

/** Stores the new list and sends it to everyone but guests, as the real server does after each change. */
export function setDefaultStreams(world: WorldCtx, ids: number[]): void {
  const { store } = world;
  store.updateRealm({ default_stream_ids: ids });
  const audience = activeUserIds(store).filter((id) => !isGuest(store.users.get(id)!));
  const event = { type: 'default_streams', default_streams: [...ids] };
  publishByForm(
    world,
    audience,
    event,
    { schema: 'RegisterState', field: 'realm_default_streams', newest: 'ids' },
    (form) => ({ type: 'default_streams', default_streams: defaultChannelList(store, form, world.clock.now()) }),
  );
}

export function addDefaultStream(world: WorldCtx, actor: User, input: ParamsOf<'add-default-stream'>): void {
  requireAdmin(actor);
  const stream = accessStreamContentById(world.store, actor, input.stream_id);
  if (stream.invite_only) throw badRequest('Private channels cannot be made default.');
  const ids = world.store.realm.default_stream_ids;
  if (ids.includes(stream.stream_id)) return;
  setDefaultStreams(world, [...ids, stream.stream_id]);
}

export function removeDefaultStream(world: WorldCtx, actor: User, input: ParamsOf<'remove-default-stream'>): void {
  requireAdmin(actor);
  // Private channels the administrator is not subscribed to can be removed; archived ones are not default any more.
  const stream = world.store.streams.get(input.stream_id);
  if (!stream || stream.is_archived) throw invalidChannelId();
  setDefaultStreams(
    world,
    world.store.realm.default_stream_ids.filter((id) => id !== input.stream_id),
  );
}
