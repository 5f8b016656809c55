// Marked extension for emoji by name, `:smile:`: the organization's custom emoji first, then the
// server's Unicode names, then its extra emoji, in the real server's order and HTML (the title is
// the name with spaces for underscores). An unknown name stays text. The Unicode names are those
// of the level rendered at: before the smile rename `:smile:` is 1f642 and `:big_smile:` 1f604.
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import { EXTRA_EMOJI_NAMES } from '../emoji/emoji-data.js';
import { escapeHtml } from './html.js';
import type { RenderState } from './render-state.js';

type EmojiToken = Tokens.Generic & { html: string };

// The server's `\w` is Python's, which takes any letter or digit: `:piñata:` is an emoji name.
const SYNTAX = /:([\p{L}\p{N}_+-]+):/u;
/** The syntax at the start of the text the tokenizer is given (made once: it runs per token). */
const AT_START = new RegExp(`^${SYNTAX.source}`, 'u');
/** Where the server keeps the image of its extra emoji. */
const EXTRA_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/';

function emojiHtml(state: RenderState, name: string): string | undefined {
  const title = escapeHtml(name.replace(/_/g, ' '));
  const alt = escapeHtml(`:${name}:`);
  const custom = state.store.realmEmoji.find((e) => e.name === name && !e.deactivated);
  if (custom) return `<img alt="${alt}" class="emoji" src="${escapeHtml(custom.source_url)}" title="${title}">`;
  if (Object.hasOwn(state.emojiNames, name)) {
    return `<span aria-label="${title}" class="emoji emoji-${state.emojiNames[name]}" role="img" title="${title}">${alt}</span>`;
  }
  if (EXTRA_EMOJI_NAMES.has(name))
    return `<img alt="${alt}" class="emoji" src="${EXTRA_EMOJI_URL}${name}.png" title="${title}">`;
  return undefined;
}

export function emojiExtension(current: () => RenderState): TokenizerAndRendererExtension {
  return {
    name: 'zulipEmoji',
    level: 'inline',
    // Only a whole `:name:` may end the text before it: a lone colon (a URL's scheme) must not.
    start: (src) => {
      const i = src.search(SYNTAX);
      return i < 0 ? undefined : i;
    },
    tokenizer(src): EmojiToken | undefined {
      const m = AT_START.exec(src);
      if (!m) return undefined;
      const html = emojiHtml(current(), m[1]);
      return html === undefined ? undefined : { type: 'zulipEmoji', raw: m[0], html };
    },
    renderer: (token) => (token as EmojiToken).html,
  };
}
