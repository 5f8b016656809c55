// Marked extensions for mentions: users (@**Full Name**, @**Full Name|id**, @**|id**), silent
// mentions (@_**Name**), wildcards (@**all**, @**everyone**, @**channel**, @**stream**,
// @**topic**) and user groups (@*group*, @_*group*). A name that matches nobody stays text,
// so the rest of the Markdown (here: the bold) applies to it, as on the real server. Mentions
// inside a quote are shown silent and notify nobody (quoting must not re-notify).
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import type { User, UserGroup } from '../../store/state.js';
import { escapeHtml } from './html.js';
import { atWordStart, type RenderState } from './render-state.js';

/** A mention that does not notify, as the real server writes it in its notices. */
export const silentMention = (user: Pick<User, 'full_name' | 'user_id'>) => `@_**${user.full_name}|${user.user_id}**`;

const CHANNEL_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);
const TOPIC_WILDCARD = 'topic';

type Target =
  | { kind: 'user'; user: User }
  | { kind: 'group'; group: UserGroup }
  | { kind: 'channel-wildcard'; name: string }
  | { kind: 'topic-wildcard' };

type MentionToken = Tokens.Generic & { target: Target; silent: boolean };

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

function userTarget(state: RenderState, text: string): Target | undefined {
  if (CHANNEL_WILDCARDS.has(text)) return { kind: 'channel-wildcard', name: text };
  if (text === TOPIC_WILDCARD) return { kind: 'topic-wildcard' };
  const user = userByMention(state, text);
  return user && { kind: 'user', user };
}

function groupTarget(state: RenderState, text: string): Target | undefined {
  const lower = text.toLowerCase();
  const group = state.store.userGroups.find(
    (g) => !g.is_system_group && !g.deactivated && g.name.toLowerCase() === lower,
  );
  return group && { kind: 'group', group };
}

/** Records what a (non-silent) mention notifies. */
function record(state: RenderState, target: Target): void {
  if (target.kind === 'user') state.mentionedUserIds.add(target.user.user_id);
  else if (target.kind === 'group') state.mentionedGroupIds.add(target.group.id);
  else if (target.kind === 'channel-wildcard') state.mentionsChannelWildcard = true;
  else state.mentionsTopicWildcard = true;
}

function mentionHtml(target: Target, silent: boolean): string {
  const cls = silent ? ' silent' : '';
  const at = silent ? '' : '@';
  switch (target.kind) {
    case 'user':
      return `<span class="user-mention${cls}" data-user-id="${target.user.user_id}">${at}${escapeHtml(target.user.full_name)}</span>`;
    case 'group':
      return `<span class="user-group-mention${cls}" data-user-group-id="${target.group.id}">${at}${escapeHtml(target.group.name)}</span>`;
    case 'channel-wildcard':
      return `<span class="user-mention channel-wildcard-mention${cls}" data-user-id="*">${at}${target.name}</span>`;
    case 'topic-wildcard':
      return `<span class="topic-mention${cls}">${at}topic</span>`;
  }
}

export function mentionExtension(current: () => RenderState): TokenizerAndRendererExtension {
  return {
    name: 'zulipMention',
    level: 'inline',
    start: (src) => src.search(/@_?\*/),
    tokenizer(src, tokens): MentionToken | undefined {
      if (!src.startsWith('@') || !atWordStart(tokens)) return undefined;
      const user = /^@(_?)\*\*([^*]+)\*\*/.exec(src);
      const group = user ? null : /^@(_?)\*([^*]+)\*(?!\*)/.exec(src);
      const m = user ?? group;
      if (!m) return undefined;
      const state = current();
      const target = user ? userTarget(state, m[2]) : groupTarget(state, m[2]);
      return target && { type: 'zulipMention', raw: m[0], target, silent: m[1] === '_' };
    },
    // Decided when rendering, when it is known whether the mention sits in a quote.
    renderer(token) {
      const { target, silent } = token as MentionToken;
      const state = current();
      const effectiveSilent = silent || state.quoteDepth > 0;
      if (!effectiveSilent) record(state, target);
      return mentionHtml(target, effectiveSilent);
    },
  };
}
