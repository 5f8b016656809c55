// Renders message content and channel descriptions to HTML with `marked` (GitHub-flavoured
// Markdown, single newlines as line breaks) extended with the chat's own syntax: mentions,
// channel links, emoji by name, global times, the organization's linkifiers, and the quote and
// spoiler code blocks. Raw HTML in the source is shown as text, as on the real server.
import { Marked, type Token, type Tokens, type TokenizerExtension } from 'marked';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { channelLinkExtension } from './channel-links.js';
import { emojiExtension } from './emoji.js';
import { globalTimeExtension } from './global-times.js';
import { escapeHtml } from './html.js';
import { compileLinkifiers, linkifierExtension } from './linkifiers.js';
import { mentionExtension } from './mentions.js';
import { listItemPreviews, paragraphWithPreviews, previewsAllowed } from './inline-images.js';
import { cpuMicros, newRenderState, type RenderState } from './render-state.js';
import { Memo } from '../../memo.js';
import { DerivedSlot } from '../../store/derived.js';
import { badRequest } from '../../errors.js';
import { prerendered } from './prerendered.js';
import { NEWEST_RENDER_LEVEL, type RenderLevel } from './render-level.js';

export interface RenderResult extends Omit<
  RenderState,
  'store' | 'sender' | 'quoteDepth' | 'previews' | 'previewed' | 'deadline' | 'emojiNames' | 'times' | 'nowMs'
> {
  html: string;
}

/**
 * A configured `marked` for one store and its linkifiers, reused by every rendering: building one
 * per message cost more than the rendering itself. The extensions read the rendering in progress
 * through `current` (rendering is synchronous, so there is one at a time).
 */
interface Renderer {
  marked: Marked;
  linkifiers: ReturnType<typeof compileLinkifiers>;
  state: RenderState | null;
}

const RENDERER = new DerivedSlot(() => ({ kept: null as Renderer | null }));

function rendererFor(store: Store): Renderer {
  const linkifiers = compileLinkifiers(store);
  const slot = store.derived.of(RENDERER);
  let r = slot.kept;
  if (!r || r.linkifiers !== linkifiers) {
    const renderer: Renderer = { linkifiers, state: null, marked: null as unknown as Marked };
    renderer.marked = newMarked(() => renderer.state!, linkifiers);
    slot.kept = r = renderer;
  }
  return r;
}

function newMarked(current: () => RenderState, linkifiers: ReturnType<typeof compileLinkifiers>): Marked {
  const marked: Marked = new Marked({
    async: false,
    gfm: true,
    breaks: true,
    extensions: [
      deadlineExtension(current, 'block'),
      deadlineExtension(current, 'inline'),
      mentionExtension(current),
      channelLinkExtension(current),
      emojiExtension(current),
      globalTimeExtension(current),
      linkifierExtension(linkifiers),
    ],
    renderer: {
      // Raw HTML is not allowed: show it as the text it is.
      html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
      paragraph(token: Tokens.Paragraph) {
        return paragraphWithPreviews(current(), token, `<p>${this.parser.parseInline(token.tokens)}</p>\n`);
      },
      listitem(item: Tokens.ListItem) {
        const previews = listItemPreviews(current(), item);
        if (previews === null) return false;
        return `<li>${previews.alone ? '' : this.parser.parse(item.tokens)}${previews.blocks}</li>\n`;
      },
      blockquote(token: Tokens.Blockquote) {
        return `<blockquote>\n${quoted(() => this.parser.parse(token.tokens))}</blockquote>\n`;
      },
      code(token: Tokens.Code) {
        const [lang = '', ...rest] = (token.lang ?? '').trim().split(/\s+/);
        // ```quote and ```spoiler hold Markdown, rendered like the rest of the message.
        const markdown = (text: string) => marked.parser(marked.lexer(text));
        if (lang === 'quote') return `<blockquote>\n${quoted(() => markdown(token.text))}</blockquote>\n`;
        if (lang === 'spoiler') {
          const header = rest.length ? markdown(rest.join(' ')) : '';
          return `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n${markdown(token.text)}</div></div>\n`;
        }
        const language = lang ? ` data-code-language="${escapeHtml(lang)}"` : '';
        return `<div class="codehilite"${language}><pre><span></span><code>${escapeHtml(token.text)}\n</code></pre></div>\n`;
      },
    },
  });
  function quoted(render: () => string): string {
    const state = current();
    state.quoteDepth++;
    try {
      return render();
    } finally {
      state.quoteDepth--;
    }
  }
  return marked;
}

/**
 * What a rendering reads of the state: users and groups (mentions), channels and subscriptions
 * (channel links and whether the author may see them), linkifiers, uploads (image previews). Sending a message changes none.
 */
const RENDER_INPUTS = [
  'users',
  'user_groups',
  'streams',
  'subscriptions',
  'linkifiers',
  'realm_emoji',
  'realm',
  'attachments',
] as const;
/** Clients send the same short texts again and again; longer ones are not worth keeping. */
const CACHED_CONTENT_CHARS = 2000;
const CACHED_RENDERINGS = 256;

/** Kept renderings: one memo per render level (render-level.ts). */
const RENDERINGS = new DerivedSlot(() => ({
  kept: null as { stamp: string; results: Map<RenderLevel, Memo<string, RenderResult>> } | null,
}));

/** Whether a rendering may depend on the day: a lenient `<time:10:30>` is today at 10:30. */
const readsTheDay = (content: string, level: RenderLevel) =>
  level.times.startsWith('lenient') && content.includes('<time:');

/**
 * Renders `content`, recording the mentions it makes (for the send logic). The same content by
 * the same author renders the same while the state it reads is unchanged, so short contents are
 * kept per author (and level) until then. The result is shared: callers read it, never change it.
 * `level`: the rules of the level asked at (the newest by default); `nowMs`: the mock clock's
 * time, which only the lenient time syntax of levels before 503 reads (callers at such levels give it).
 */
export function renderMessage(
  store: Store,
  content: string,
  sender: User | null = null,
  level: RenderLevel = NEWEST_RENDER_LEVEL,
  nowMs = 0,
): RenderResult {
  if (content.length > CACHED_CONTENT_CHARS || readsTheDay(content, level)) {
    return render(store, content, sender, level, nowMs);
  }
  const stamp = store.partsVersion(RENDER_INPUTS);
  const slot = store.derived.of(RENDERINGS);
  let cache = slot.kept;
  if (!cache || cache.stamp !== stamp) slot.kept = cache = { stamp, results: new Map() };
  let results = cache.results.get(level);
  if (!results) cache.results.set(level, (results = new Memo(CACHED_RENDERINGS)));
  return results.get(`${sender?.user_id ?? ''}:${content}`, () => render(store, content, sender, level, nowMs));
}

function render(store: Store, content: string, sender: User | null, level: RenderLevel, nowMs: number): RenderResult {
  const state = newRenderState(store, sender, level, nowMs);
  const renderer = rendererFor(store);
  const outer = renderer.state;
  renderer.state = state;
  let html: string;
  try {
    if (content.includes('/user_uploads/')) {
      const tokens = renderer.marked.lexer(content);
      state.previews = previewsAllowed(tokens, (ts, cb) => renderer.marked.walkTokens(ts as Token[], cb));
      html = renderer.marked.parser(tokens).trim();
    } else {
      html = (renderer.marked.parse(content) as string).trim();
    }
  } catch (err) {
    // Nesting deep enough to exhaust the stack (thousands of `>`), or content whose lexing runs
    // past the budget (thousands of emphasis delimiters): the real server's renderer gives up on
    // such content too and refuses the message with this error.
    if (err instanceof RangeError || err instanceof OutOfTime) throw unableToRender();
    throw err;
  } finally {
    renderer.state = outer;
  }
  const {
    store: _s,
    sender: _u,
    quoteDepth: _q,
    previews: _p,
    previewed: _v,
    deadline: _d,
    emojiNames: _e,
    times: _t,
    nowMs: _n,
    ...found
  } = state;
  return { html, ...found };
}

/** Thrown when a rendering passes its deadline. */
class OutOfTime extends Error {}

/**
 * A tokenizer that never matches: marked tries extension tokenizers at every position it lexes,
 * so this one looks at the CPU time used there (every 64th time) and stops a rendering past its deadline.
 */
function deadlineExtension(current: () => RenderState, level: 'block' | 'inline'): TokenizerExtension {
  let calls = 0;
  return {
    name: `deadline-${level}`,
    level,
    tokenizer() {
      if ((++calls & 63) === 0 && cpuMicros() > current().deadline) throw new OutOfTime('rendering took too long');
      return undefined;
    },
  };
}

/** The real server's answer when its renderer fails or runs out of time on a message. */
const unableToRender = () => badRequest('Unable to render message');

/** The HTML of a message or a channel description. */
export function renderMarkdown(
  store: Store,
  content: string,
  sender: User | null = null,
  level: RenderLevel = NEWEST_RENDER_LEVEL,
  nowMs = 0,
): string {
  // A fresh start's renderings of the shipped fixture were made by the build (prerendered.ts).
  if (sender === null && !readsTheDay(content, level)) {
    const html = prerendered(store, RENDER_INPUTS, content, level);
    if (html !== undefined) return html;
  }
  return renderMessage(store, content, sender, level, nowMs).html;
}
