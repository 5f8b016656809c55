// Muting users. The real server looks the muted user up among everyone of the organization and
// the system bots, bots and deactivated users included; checks self first (before the lookup)
// when muting only, so unmuting oneself is "User is not muted".
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { DerivedSlot } from '../../store/derived.js';
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { markSenderAsRead } from '../messages/mark-read.js';

type Mute = { id: number; timestamp: number };

const mutesOf = (user: User): Mute[] => user.muted_users ?? [];

const NOBODY: ReadonlySet<number> = new Set();

/** Who muted whom, made once per change of the users (every message sent asks, twice). */
const MUTERS = new DerivedSlot(() => ({
  kept: null as { stamp: string; byMuted: Map<number, Set<number>> } | null,
}));

/** IDs of the users who muted `userId`: they get its new messages already read. */
export function mutersOf(store: Store, userId: number): ReadonlySet<number> {
  const stamp = store.partsVersion(['users']);
  const slot = store.derived.of(MUTERS);
  if (slot.kept?.stamp !== stamp) {
    // A walk over every user, as the question was answered on each send before.
    const byMuted = new Map<number, Set<number>>();
    for (const u of store.users.all())
      for (const m of mutesOf(u)) {
        let muters = byMuted.get(m.id);
        if (!muters) byMuted.set(m.id, (muters = new Set()));
        muters.add(u.user_id);
      }
    slot.kept = { stamp, byMuted };
  }
  return slot.kept.byMuted.get(userId) ?? NOBODY;
}

function mutable(store: Store, userId: number): User {
  const user = store.users.get(userId);
  if (!user) throw badRequest('No such user');
  return user;
}

function save(world: WorldCtx, user: User, mutes: Mute[]): void {
  world.store.users.update(user, { muted_users: mutes });
  world.events.publish([user.user_id], { type: 'muted_users', muted_users: mutes.map((m) => ({ ...m })) });
}

export function muteUser(world: WorldCtx, actor: User, { userId }: { userId: number }): void {
  if (userId === actor.user_id) throw badRequest('Cannot mute self');
  const target = mutable(world.store, userId);
  const mutes = mutesOf(actor);
  if (mutes.some((m) => m.id === target.user_id)) throw badRequest('User already muted');
  // The real server marks the messages read before it announces the mute.
  markSenderAsRead(world, actor, target.user_id);
  save(world, world.store.users.get(actor.user_id)!, [...mutes, { id: target.user_id, timestamp: world.clock.now() }]);
}

export function unmuteUser(world: WorldCtx, actor: User, { userId }: { userId: number }): void {
  const target = mutable(world.store, userId);
  const mutes = mutesOf(actor);
  if (!mutes.some((m) => m.id === target.user_id)) throw badRequest('User is not muted');
  save(
    world,
    actor,
    mutes.filter((m) => m.id !== target.user_id),
  );
}
