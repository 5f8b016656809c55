// The caller's alert words: add and remove, compared without case, keeping the spelling the
// word was added with. Every change, even one that changes nothing, sends the caller's clients
// the whole list, as the real server does.
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';

export const alertWordsOf = (user: User): string[] => [...(user.alert_words ?? [])];

function save(world: WorldCtx, user: User, words: string[]): string[] {
  world.store.users.update(user, { alert_words: words });
  world.events.publish([user.user_id], { type: 'alert_words', alert_words: [...words] });
  return words;
}

/** Adds the words not there yet; of several spellings of one new word the last wins, in the first's place. */
export function addAlertWords(world: WorldCtx, user: User, { words }: { words: string[] }): string[] {
  const current = alertWordsOf(user);
  const known = new Set(current.map((w) => w.toLowerCase()));
  const added = new Map<string, string>();
  for (const raw of words) {
    // Trimmed after the length check (the description's maxLength), as the real server does.
    const word = raw.trim();
    if (word === '' || known.has(word.toLowerCase())) continue;
    added.set(word.toLowerCase(), word);
  }
  return save(world, user, [...current, ...added.values()]);
}

/** Removes the words equal, without case, to one given (not trimmed); others are ignored. */
export function removeAlertWords(world: WorldCtx, user: User, { words }: { words: string[] }): string[] {
  const gone = new Set(words.map((w) => w.toLowerCase()));
  return save(
    world,
    user,
    alertWordsOf(user).filter((w) => !gone.has(w.toLowerCase())),
  );
}
