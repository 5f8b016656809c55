// Renders message content and channel descriptions to HTML with `marked` (GitHub-flavoured
// Markdown, single newlines as line breaks) extended with the chat's own syntax: mentions,
// channel links and the organization's linkifiers. Raw HTML in the source is shown as text, as
// on the real server.
import { Marked, type Tokens } from 'marked';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { channelLinkExtension } from './channel-links.js';
import { escapeHtml } from './html.js';
import { compileLinkifiers, linkifierExtension } from './linkifiers.js';
import { mentionExtension } from './mentions.js';
import { newRenderState, type RenderState } from './render-state.js';

export interface RenderResult extends Omit<RenderState, 'store' | 'sender'> {
  html: string;
}

/** Renders `content`, recording the mentions it makes (for the send logic). */
export function renderMessage(store: Store, content: string, sender: User | null = null): RenderResult {
  const state = newRenderState(store, sender);
  const marked = new Marked({
    async: false,
    gfm: true,
    breaks: true,
    extensions: [mentionExtension(state), channelLinkExtension(state), linkifierExtension(compileLinkifiers(store))],
    renderer: {
      // Raw HTML is not allowed: show it as the text it is.
      html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    },
  });
  const html = (marked.parse(content) as string).trim();
  const { store: _s, sender: _u, ...found } = state;
  return { html, ...found };
}

/** The HTML of a message or a channel description. */
export function renderMarkdown(store: Store, content: string, sender: User | null = null): string {
  return renderMessage(store, content, sender).html;
}
