// Marked extension for the global time syntax, `<time:2017-06-05T22:30:00+02:00>`: a time every
// reader sees in their own zone. The server writes `<time datetime="...">` with the time in UTC
// and the text as written; a time it cannot read is, before level 451, an error span, and from
// then on the syntax as written, as plain text. The syntax is new at 8, and what reads as a time
// changed at 503 (render-level.ts). Code spans and blocks keep the syntax as text, as everywhere.
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import { parseIsoTime } from './iso-time.js';
import { parseLenientTime, parseUnixTime } from './lenient-time.js';
import type { RenderState } from './render-state.js';
import { datetimeAttribute } from './time-values.js';

type TimeToken = Tokens.Generic & { html: string };

/** The server's pattern: everything up to the first `>`. */
const SYNTAX = /^<time:([^>]*?)>/;
const DAY_MS = 86_400_000;

/** Text as the server's HTML serializer writes it (quotes stay as they are). */
const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The `datetime` attribute for what was written, or null when the level reads no time there. */
function attributeFor(state: RenderState, written: string): string | null {
  if (state.times === 'iso') {
    const t = parseIsoTime(written);
    return t && datetimeAttribute(t);
  }
  // Missing parts come from the server's current day (UTC).
  const today = Math.floor(state.nowMs / DAY_MS) * DAY_MS;
  const t = parseLenientTime(written, today) ?? parseUnixTime(written);
  return t && datetimeAttribute(t);
}

export function globalTimeExtension(current: () => RenderState): TokenizerAndRendererExtension {
  return {
    name: 'zulipGlobalTime',
    level: 'inline',
    start: (src) => {
      const i = src.indexOf('<time:');
      return i < 0 ? undefined : i;
    },
    tokenizer(src): TimeToken | undefined {
      const m = SYNTAX.exec(src);
      if (!m) return undefined;
      const state = current();
      const attribute = state.times === 'none' ? null : attributeFor(state, m[1]);
      if (attribute !== null) {
        return { type: 'zulipGlobalTime', raw: m[0], html: `<time datetime="${attribute}">${text(m[1])}</time>` };
      }
      if (state.times === 'lenient') {
        const html = `<span class="timestamp-error">Invalid time format: ${text(m[1])}</span>`;
        return { type: 'zulipGlobalTime', raw: m[0], html };
      }
      // The text as written, nothing in it rendered (and not an autolink to a `time:` URL). Before
      // the syntax existed (level 8) it was text too.
      return { type: 'zulipGlobalTime', raw: m[0], html: text(m[0]) };
    },
    renderer: (token) => (token as TimeToken).html,
  };
}
