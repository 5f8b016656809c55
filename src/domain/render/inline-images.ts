// Inline previews of uploaded images, as the real server renders them: after the paragraph that
// links an uploaded image comes a `message_inline_image` block linking the file (its `title` is
// the link's text when that differs from the URL; a paragraph holding nothing but the bare URL is
// replaced by the preview). In a tight list item (no paragraph) the block goes inside the item, at
// its end; an item holding nothing but the bare URL keeps only the block. Each URL is previewed
// once per message, never inside a quote, and no previews at all when the message has more than
// 24 distinct links (the real server's limit).
//
// The real server points the <img> at a thumbnail (/user_uploads/thumbnail/.../840x560.webp) once
// it has made one; the mock makes no thumbnails, so the <img> loads the original file itself.
import type { Token, Tokens } from 'marked';
import type { Store } from '../../store/store.js';
import type { Attachment } from '../../store/state.js';
import { DerivedSlot } from '../../store/derived.js';
import { imageSize, type ImageSize } from '../uploads/image-size.js';
import { escapeHtml } from './html.js';
import type { RenderState } from './render-state.js';

const PREVIEW_LIMIT_PER_MESSAGE = 24;
/** Enough of a file to find its image header (a JPEG's frame header may follow its metadata). */
const HEADER_BASE64_CHARS = 349_528;

/** The path ID of a link to an upload of this site, or null. */
function uploadPathId(href: string): string | null {
  if (!href.startsWith('/user_uploads/')) return null;
  try {
    return decodeURIComponent(href.slice('/user_uploads/'.length).split(/[?#]/)[0]);
  } catch {
    return null;
  }
}

/**
 * An upload's image size, read from its header once per row (a row is replaced, never changed, so
 * a changed upload is read again): every rendering that links it would decode its header anew.
 */
const SIZES = new DerivedSlot(() => new WeakMap<Attachment, ImageSize | null>());

export function sizeOf(store: Store, attachment: Attachment): ImageSize | null {
  const sizes = store.derived.of(SIZES);
  let size = sizes.get(attachment);
  if (size === undefined) {
    size = imageSize(
      attachment.content_type,
      Buffer.from(attachment.content_base64.slice(0, HEADER_BASE64_CHARS), 'base64'),
    );
    sizes.set(attachment, size);
  }
  return size;
}

/** The preview block for `href` when it links an uploaded image, or null. */
function previewOf(store: Store, href: string, title: string | null): string | null {
  const pathId = uploadPathId(href);
  const attachment = pathId === null ? undefined : store.attachments.by('path_id', pathId);
  if (!attachment) return null;
  const size = sizeOf(store, attachment);
  if (!size) return null;
  const link = escapeHtml(href);
  const titled = title === null ? '' : ` title="${escapeHtml(title)}"`;
  return `<div class="message_inline_image"><a href="${link}"${titled}><img data-original-dimensions="${size.width}x${size.height}" src="${link}"></a></div>`;
}

function linksIn(tokens: readonly Token[] | undefined, out: Tokens.Link[] = []): Tokens.Link[] {
  for (const token of tokens ?? []) {
    if (token.type === 'link') out.push(token as Tokens.Link);
    else if ('tokens' in token) linksIn(token.tokens as Token[], out);
  }
  return out;
}

/** Whether a message's tokens have few enough distinct links for previews. */
export function previewsAllowed(
  tokens: readonly Token[],
  walk: (tokens: readonly Token[], cb: (t: Token) => void) => void,
): boolean {
  const hrefs = new Set<string>();
  walk(tokens, (t) => {
    if (t.type === 'link') hrefs.add((t as Tokens.Link).href);
  });
  return hrefs.size <= PREVIEW_LIMIT_PER_MESSAGE;
}

/**
 * A paragraph's HTML followed by the previews of the uploaded images it links (or the preview
 * alone, for a paragraph that is only the bare URL).
 */
export function paragraphWithPreviews(state: RenderState, token: Tokens.Paragraph, html: string): string {
  if (!state.previews || state.quoteDepth > 0) return html;
  const links = linksIn(token.tokens);
  if (links.length === 0) return html;
  let blocks = '';
  for (const link of links) {
    if (state.previewed.has(link.href)) continue;
    const bare = link.text === link.href;
    const preview = previewOf(state.store, link.href, bare ? null : link.text);
    if (preview === null) continue;
    state.previewed.add(link.href);
    blocks += `${preview}\n`;
    const alone = token.tokens.length === 1 && bare;
    if (alone) return blocks;
  }
  return html + blocks;
}

/**
 * The previews of a tight list item: those of the uploaded images linked directly by its own text,
 * to be written at the item's end; `alone` when the item is nothing but one bare URL, which the
 * preview replaces. A nested list's links are previewed in its own items. Links inside emphasis
 * get none here (the real server appends theirs at the end of the whole message; the mock does
 * not). Null when there are none (loose items hold paragraphs: paragraphWithPreviews).
 */
export function listItemPreviews(state: RenderState, item: Tokens.ListItem): { blocks: string; alone: boolean } | null {
  if (!state.previews || state.quoteDepth > 0 || item.loose) return null;
  let blocks = '';
  let alone = false;
  for (const token of item.tokens) {
    if (token.type !== 'text' || !('tokens' in token) || !token.tokens) continue;
    for (const link of token.tokens) {
      if (link.type !== 'link' || state.previewed.has(link.href)) continue;
      const bare = link.text === link.href;
      const preview = previewOf(state.store, link.href, bare ? null : link.text);
      if (preview === null) continue;
      state.previewed.add(link.href);
      blocks += preview;
      if (bare && item.tokens.length === 1 && token.tokens.length === 1) alone = true;
    }
  }
  return blocks === '' ? null : { blocks, alone };
}
