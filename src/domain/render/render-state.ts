// What one rendering learns about the message besides its HTML: who and what it mentions.
// Extensions write into it while marked walks the content; the send logic reads it afterwards.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { RenderLevel, TimeSyntax } from './render-level.js';

export interface RenderState {
  store: Store;
  /** The author; channel links only resolve to channels the author may know about. */
  sender: User | null;
  /** Users mentioned with @**Name** (not silently). */
  mentionedUserIds: Set<number>;
  /** User groups mentioned with @*group* (not silently). */
  mentionedGroupIds: Set<number>;
  /** @**all**, @**everyone**, @**channel**, @**stream** (not silently). */
  mentionsChannelWildcard: boolean;
  /** @**topic** (not silently). */
  mentionsTopicWildcard: boolean;
  /** How many quotes the renderer is inside (mentions there are silent). */
  quoteDepth: number;
  /** Whether uploaded images are previewed in this message (not past the real server's link limit). */
  previews: boolean;
  /** The URLs already previewed (each once per message). */
  previewed: Set<string>;
  /** The process's CPU time (cpuMicros) past which the rendering is given up (see RENDER_BUDGET_MS). */
  deadline: number;
  /** The Unicode emoji names of the level rendered at (`:smile:` changed meaning at the smile rename). */
  emojiNames: Readonly<Record<string, string>>;
  /** How the level rendered at reads `<time:...>`. */
  times: TimeSyntax;
  /** The mock clock's time (epoch ms): the lenient time syntax takes a missing date from it. */
  nowMs: number;
}

/**
 * What one rendering may take, in CPU time. The real server gives up on a message its renderer has
 * not finished in time and refuses it ("Unable to render message"); the mock does so much sooner,
 * since a rendering holds every other request of the server: the longest ordinary messages take a
 * third of this. CPU time, not the clock: on a loaded machine the clock runs on while the process
 * waits for a core, and a message that renders in time when the machine is idle must not be
 * refused when it is busy.
 */
const RENDER_BUDGET_MS = 400;

/** The CPU time the process has used, in microseconds. */
export function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

export function newRenderState(store: Store, sender: User | null, level: RenderLevel, nowMs: number): RenderState {
  return {
    store,
    sender,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    mentionsChannelWildcard: false,
    mentionsTopicWildcard: false,
    quoteDepth: 0,
    previews: true,
    previewed: new Set(),
    deadline: cpuMicros() + RENDER_BUDGET_MS * 1000,
    emojiNames: level.emojiNames,
    times: level.times,
    nowMs,
  };
}

/**
 * Mentions and linkifiers only apply at the start of a word: after whitespace, a quote, an opening
 * parenthesis, a comma, a colon or "<", or at the start of the text (the real server's rule).
 */
export function atWordStart(tokens: Array<{ raw: string }>): boolean {
  const prev = tokens.at(-1)?.raw.slice(-1) ?? '';
  return prev === '' || /[\s'"(,:<]/.test(prev);
}
