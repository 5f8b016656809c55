// POST /users/{user_id}/reactivate: the account counts again. A deactivated user counts neither
// as a subscriber nor as a group member, so besides the realm_user update, the peers of each
// channel they are still subscribed to get peer_add and everyone gets add_members for each of
// their groups (the real server's order: user, bot, channels, groups).
import { badRequest } from '../../errors.js';
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { metadataAudience } from '../channels/audience.js';
import { activeUserIds } from './access.js';
import { targetUser } from './administer.js';
import { isAdmin } from './roles.js';

function announceChannels(world: WorldCtx, user: User): void {
  const { store } = world;
  const streamIds = store.subscriptions
    .filter((s) => s.user_id === user.user_id)
    .map((s) => s.stream_id)
    .sort((a, b) => a - b);
  for (const streamId of streamIds) {
    const stream = store.streams.get(streamId);
    if (!stream || stream.is_archived) continue;
    world.events.publish(metadataAudience(store, stream), {
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [streamId],
      user_ids: [user.user_id],
    });
  }
}

function announceGroups(world: WorldCtx, user: User): void {
  const { store } = world;
  const groups = store.userGroups.filter((g) => g.direct_members.includes(user.user_id)).sort((a, b) => a.id - b.id);
  for (const group of groups) {
    world.events.publish(activeUserIds(store), {
      type: 'user_group',
      op: 'add_members',
      group_id: group.id,
      user_ids: [user.user_id],
    });
  }
}

export function reactivateUser(world: WorldCtx, actor: User, input: { user_id: number }): void {
  const { store } = world;
  const target = targetUser(store, actor, input.user_id, { allowDeactivated: true, allowBots: true, forAdmin: true });
  // A bot comes back only if no active account took its name meanwhile (the real server compares
  // with every active account, people included, whatever the wording says).
  if (target.is_bot && store.users.find((u) => u.is_active && u.full_name === target.full_name.trim())) {
    throw badRequest(
      `There is already an active bot named "${target.full_name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
  }
  const user = store.users.update(target, { is_active: true });
  world.events.publish(activeUserIds(store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, is_active: true },
  });
  if (user.is_bot) {
    const watchers = activeUserIds(store).filter((id) => id === user.bot_owner_id || isAdmin(store.users.get(id)!));
    world.events.publish(watchers, {
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: user.user_id, is_active: true },
    });
  }
  announceChannels(world, user);
  announceGroups(world, user);
}
