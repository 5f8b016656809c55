// Who receives the events about a channel: everyone allowed to see its metadata (public
// channels: every active non-guest plus guests who can see it; private ones: subscribers,
// administrators and the holders of the groups that grant access).
import type { Store } from '../../store/store.js';
import type { Stream } from '../../store/state.js';
import { hasMetadataAccess } from './access.js';

export function metadataAudience(store: Store, stream: Stream): number[] {
  return store.users.filter((u) => u.is_active && hasMetadataAccess(store, u, stream)).map((u) => u.user_id);
}
