// Marked extension for channel links: #**Verona**, topic links #**Verona>topic** and message
// links #**Verona>topic@123**. A channel that does not exist, or that the author may not know
// about, leaves the text as it is.
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import type { Stream } from '../../store/state.js';
import { hasMetadataAccess } from '../channels/access.js';
import { escapeHtml } from './html.js';
import { channelUrl, messageUrl, topicUrl } from './narrow-urls.js';
import type { RenderState } from './render-state.js';

type LinkToken = Tokens.Generic & { html: string };

function linkableChannel(state: RenderState, name: string): Stream | undefined {
  const stream = state.store.streams.by('name', name.toLowerCase());
  if (!stream) return undefined;
  const visible = state.sender ? hasMetadataAccess(state.store, state.sender, stream) : !stream.invite_only;
  return visible ? stream : undefined;
}

function linkHtml(stream: Stream, topic: string | undefined, messageId: string | undefined): string {
  const id = stream.stream_id;
  const name = escapeHtml(stream.name);
  if (topic === undefined) {
    return `<a class="stream" data-stream-id="${id}" href="${escapeHtml(channelUrl(id, stream.name))}">#${name}</a>`;
  }
  if (messageId === undefined) {
    const href = escapeHtml(topicUrl(id, stream.name, topic));
    return `<a class="stream-topic" data-stream-id="${id}" href="${href}">#${name} &gt; ${escapeHtml(topic)}</a>`;
  }
  const href = escapeHtml(messageUrl(id, stream.name, topic, Number(messageId)));
  return `<a class="message-link" href="${href}">#${name} &gt; ${escapeHtml(topic)} @ 💬</a>`;
}

export function channelLinkExtension(current: () => RenderState): TokenizerAndRendererExtension {
  return {
    name: 'zulipChannelLink',
    level: 'inline',
    start: (src) => src.indexOf('#**'),
    tokenizer(src): LinkToken | undefined {
      const m = /^#\*\*([^*>]+?)(?:>([^*]*?)(?:@(\d+))?)?\*\*/.exec(src);
      if (!m) return undefined;
      const stream = linkableChannel(current(), m[1]);
      if (!stream) return undefined;
      return { type: 'zulipChannelLink', raw: m[0], html: linkHtml(stream, m[2], m[3]) };
    },
    renderer: (token) => (token as LinkToken).html,
  };
}
