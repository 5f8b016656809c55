// Which users' alert words a message's content contains, by the real server's rules (its
// AlertWordNotificationProcessor): the content without fenced code blocks, lowercased; every
// occurrence of an alert word counts when it is not joined to the text around it. The rules keep
// the real server's two quirks, since clients and tests see their effect: the character before
// an occurrence is not checked when the occurrence starts at the second character (the real
// server looks one character too early), and a `"` after an occurrence does not end it (its set
// of allowed characters holds the two-character string `",` instead).
import type { Store } from '../../store/store.js';

const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const AFTER = new Set([' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Fenced blocks whose content stays Markdown (and so can alert); other fenced blocks are code. */
const MARKDOWN_FENCES = new Set(['quote', 'quoted', 'spoiler']);
const FENCE = /^\s*(`{3,}|~{3,})\s*\{?\.?([\w+\-./#]*)(.*)$/;

/**
 * The text the real server looks for alert words in: whitespace normalized as its first
 * preprocessor does, fenced code blocks gone (an unclosed one runs to the end), the lines of
 * quote and spoiler blocks (and a spoiler's header) kept.
 */
function alertableText(content: string): string {
  const normalized = content.replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
  // A fence needs three backticks or tildes in a row: without them every line is kept as it is,
  // and the text is the normalized content (most messages; splitting and joining their lines
  // cost about as much as the rest of the alert-word check).
  if (!normalized.includes('```') && !normalized.includes('~~~')) return normalized;
  const lines = normalized.split('\n');
  const out: string[] = [];
  const open: Array<{ fence: string; code: boolean }> = [];
  for (const line of lines) {
    const top = open[open.length - 1];
    if (top && line.trim() === top.fence) {
      open.pop();
      out.push('');
      continue;
    }
    const m = top?.code ? null : FENCE.exec(line);
    if (m) {
      const code = !MARKDOWN_FENCES.has(m[2]);
      open.push({ fence: m[1], code });
      out.push(code ? '' : m[3]);
      continue;
    }
    if (!top?.code) out.push(line);
  }
  return out.join('\n');
}

/**
 * Whether `word` occurs in `text` (both lowercased) on its own. Searched with the engine's own
 * indexOf, not character by character: a user may have many words, and every message to them is
 * searched for each. Positions are UTF-16 units; the boundary characters are all ASCII, so they
 * judge the same, and the real server's "second character" quirk is checked in code points.
 */
function occursAlone(text: string, word: string): boolean {
  if (!word) return false;
  for (let start = text.indexOf(word); start !== -1; start = text.indexOf(word, start + 1)) {
    const after = start + word.length;
    const atSecondCodePoint = start <= 1 || (start === 2 && text.codePointAt(0)! > 0xffff);
    if ((atSecondCodePoint || BEFORE.has(text[start - 1])) && (after >= text.length || AFTER.has(text[after])))
      return true;
  }
  return false;
}

/** The users among `userIds` with an alert word in `content`. */
export function usersAlerted(store: Store, content: string, userIds: Iterable<number>): Set<number> {
  const alerted = new Set<number>();
  let text: string | null = null;
  for (const id of userIds) {
    const words = store.users.get(id)?.alert_words;
    if (!words?.length) continue;
    // Worked out once, for the first user with words.
    text ??= alertableText(content).toLowerCase();
    if (words.some((w) => occursAlone(text!, w.toLowerCase()))) alerted.add(id);
  }
  return alerted;
}
