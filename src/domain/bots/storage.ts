// Bot storage (GET/PUT/DELETE /bot_storage): string entries an account keeps on the server. As on
// the real server every account may use it (bots are what do), entries are the caller's alone, a
// missing key fails the whole request, and a write is refused whole when the caller's keys and
// values together would pass the limit (counted in characters, i.e. code points, as Python does).
import { badRequest } from '../../errors.js';
import type { BotStorageEntry, User } from '../../store/state.js';
import { botStorageKey } from '../../store/store.js';
import type { Ctx, WorldCtx } from '../context.js';

const keyDoesNotExist = () => badRequest('Key does not exist.');

/** Characters as Python counts them: a character outside the BMP is one, not two UTF-16 units. */
function characters(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      count--;
      i++;
    }
  }
  return count;
}

const entrySize = (e: BotStorageEntry) => characters(e.key) + characters(e.value);
const entriesOf = (world: WorldCtx, user: User) => [...world.store.botStorage.group('user', user.user_id)];

/** The entries named by `keys` (every entry when none are named); a key without one fails. */
function named(world: WorldCtx, user: User, keys: string[] | undefined): BotStorageEntry[] {
  if (!keys?.length) return entriesOf(world, user);
  return keys.map(
    (key) =>
      world.store.botStorage.get(botStorageKey(user.user_id, key)) ??
      (() => {
        throw keyDoesNotExist();
      })(),
  );
}

export function getBotStorage(world: WorldCtx, user: User, { keys }: { keys?: string[] }): Record<string, string> {
  const storage: Record<string, string> = {};
  for (const entry of named(world, user, keys)) storage[entry.key] = entry.value;
  return storage;
}

/** `storage`: key to value; the decoder has checked every value is a string. */
export function updateBotStorage(ctx: Ctx, { storage }: { storage: { [key: string]: string | undefined } }): void {
  const { store } = ctx;
  const user = ctx.actor;
  const limit = ctx.server.botStorageLimit;
  let size = entriesOf(ctx, user).reduce((sum, e) => sum + entrySize(e), 0);
  const entries = Object.entries(storage).filter((e): e is [string, string] => e[1] !== undefined);
  for (const [key, value] of entries) {
    const old = store.botStorage.get(botStorageKey(user.user_id, key));
    size += characters(key) + characters(value) - (old ? entrySize(old) : 0);
  }
  if (size > limit)
    throw badRequest(`Request exceeds storage limit by ${size - limit} characters. The limit is ${limit} characters.`);
  for (const [key, value] of entries) {
    const old = store.botStorage.get(botStorageKey(user.user_id, key));
    if (old) store.botStorage.update(old, { value });
    else store.botStorage.insert({ user_id: user.user_id, key, value });
  }
}

export function removeBotStorage(world: WorldCtx, user: User, { keys }: { keys?: string[] }): void {
  // Every key is checked before anything is removed: a missing one leaves the storage as it was.
  for (const entry of named(world, user, keys)) world.store.botStorage.remove(entry);
}
