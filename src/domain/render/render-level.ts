// What of the Markdown changes with the feature level: the Unicode emoji names (the smile rename)
// and the global time syntax (new at 8, invalid times shown as text from 451, ISO 8601 only from
// 503). One value per combination, made once, so that renderings can be kept per level.
import { unicodeEmojiNames } from '../emoji/emoji-data.js';

/**
 * How `<time:...>` reads: not at all, it is text (`none`); python-dateutil then UNIX timestamps,
 * an unreadable time shown as an error span (`lenient`) or as its text (`lenient-as-text`); ISO
 * 8601 only, an unreadable one as text (`iso`).
 */
export type TimeSyntax = 'none' | 'lenient' | 'lenient-as-text' | 'iso';

export interface RenderLevel {
  /** Stable across builds: names the level in kept and prerendered renderings. */
  readonly name: string;
  readonly emojiNames: Readonly<Record<string, string>>;
  readonly times: TimeSyntax;
}

const LEVELS = new Map<string, RenderLevel>();

function level(smileRenamed: boolean, times: TimeSyntax): RenderLevel {
  const name = `${smileRenamed ? 'newest-emoji' : 'before-smile-rename'}/${times}`;
  let found = LEVELS.get(name);
  if (!found) LEVELS.set(name, (found = { name, emojiNames: unicodeEmojiNames(smileRenamed), times }));
  return found;
}

/**
 * The levels already worked out, by `supports` function: a request's is made once per feature
 * level (pipeline/handle.ts) and answers the same for good, and working the level out again
 * (four behaviours looked up, a name made) cost every sent message about 2 µs.
 */
const BY_SUPPORTS = new WeakMap<(behaviour: string) => boolean, RenderLevel>();

/** The rendering rules of a request's level (its `supports`, openapi/behaviours.yaml). */
export function renderLevel(supports: (behaviour: string) => boolean): RenderLevel {
  let found = BY_SUPPORTS.get(supports);
  if (!found) BY_SUPPORTS.set(supports, (found = workedOut(supports)));
  return found;
}

function workedOut(supports: (behaviour: string) => boolean): RenderLevel {
  const times: TimeSyntax = supports('global_time_iso_only')
    ? 'iso'
    : supports('global_time_invalid_as_text')
      ? 'lenient-as-text'
      : supports('global_time_syntax')
        ? 'lenient'
        : 'none';
  return level(supports('emoji_smile_renamed'), times);
}

export const NEWEST_RENDER_LEVEL: RenderLevel = level(true, 'iso');

/** The combinations real servers have had, oldest first (the smile rename came before 451). */
export const SERVER_RENDER_LEVELS: readonly RenderLevel[] = [
  level(false, 'none'),
  level(false, 'lenient'),
  level(true, 'lenient'),
  level(true, 'lenient-as-text'),
  NEWEST_RENDER_LEVEL,
];
