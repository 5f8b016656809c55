// Marked extensions for mentions: users (@**Full Name**, @**Full Name|id**, @**|id**), silent
// mentions (@_**Name**), wildcards (@**all**, @**everyone**, @**channel**, @**stream**,
// @**topic**) and user groups (@*group*, @_*group*). A name that matches nobody stays text,
// so the rest of the Markdown (here: the bold) applies to it, as on the real server.
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import type { User } from '../../store/state.js';
import { escapeHtml } from './html.js';
import { atWordStart, type RenderState } from './render-state.js';

const CHANNEL_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);
const TOPIC_WILDCARD = 'topic';

type MentionToken = Tokens.Generic & { html: string };

function userByMention(state: RenderState, text: string): User | undefined {
  const withId = /^(.*)\|(\d+)$/.exec(text);
  if (withId) {
    const user = state.store.users.get(Number(withId[2]));
    if (!user || !user.is_active) return undefined;
    // With both a name and an ID, the name must be the user's.
    return withId[1] === '' || withId[1] === user.full_name ? user : undefined;
  }
  const lower = text.toLowerCase();
  const found = state.store.users.filter((u) => u.is_active && u.full_name.toLowerCase() === lower);
  // Two users with that name: the plain syntax is ambiguous and mentions nobody.
  return found.length === 1 ? found[0] : undefined;
}

function userMentionHtml(state: RenderState, text: string, silent: boolean): string | null {
  const cls = silent ? ' silent' : '';
  const at = silent ? '' : '@';
  if (CHANNEL_WILDCARDS.has(text)) {
    if (!silent) state.mentionsChannelWildcard = true;
    return `<span class="user-mention channel-wildcard-mention${cls}" data-user-id="*">${at}${text}</span>`;
  }
  if (text === TOPIC_WILDCARD) {
    if (!silent) state.mentionsTopicWildcard = true;
    return `<span class="topic-mention${cls}">${at}${text}</span>`;
  }
  const user = userByMention(state, text);
  if (!user) return null;
  if (!silent) state.mentionedUserIds.add(user.user_id);
  return `<span class="user-mention${cls}" data-user-id="${user.user_id}">${at}${escapeHtml(user.full_name)}</span>`;
}

function groupMentionHtml(state: RenderState, text: string, silent: boolean): string | null {
  const lower = text.toLowerCase();
  const group = state.store.userGroups.find((g) => !g.is_system_group && !g.deactivated && g.name.toLowerCase() === lower);
  if (!group) return null;
  if (!silent) state.mentionedGroupIds.add(group.id);
  const cls = silent ? ' silent' : '';
  return `<span class="user-group-mention${cls}" data-user-group-id="${group.id}">${silent ? '' : '@'}${escapeHtml(group.name)}</span>`;
}

export function mentionExtension(state: RenderState): TokenizerAndRendererExtension {
  return {
    name: 'zulipMention',
    level: 'inline',
    start: (src) => src.search(/@_?\*/),
    tokenizer(src, tokens): MentionToken | undefined {
      if (!src.startsWith('@') || !atWordStart(tokens)) return undefined;
      const user = /^@(_?)\*\*([^*]+)\*\*/.exec(src);
      if (user) {
        const html = userMentionHtml(state, user[2], user[1] === '_');
        return html === null ? undefined : { type: 'zulipMention', raw: user[0], html };
      }
      const group = /^@(_?)\*([^*]+)\*(?!\*)/.exec(src);
      if (group) {
        const html = groupMentionHtml(state, group[2], group[1] === '_');
        return html === null ? undefined : { type: 'zulipMention', raw: group[0], html };
      }
      return undefined;
    },
    renderer: (token) => (token as MentionToken).html,
  };
}
