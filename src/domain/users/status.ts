// POST /users/me/status: only the passed fields change. The emoji is found by name (custom emoji
// first, then the server's extra emoji, then Unicode) unless the client names its code and type,
// in which case the three must agree. `away` is the deprecated inverse of presence_enabled.
// POST /users/{user_id}/status (FL 407): an administrator changes another person's status the
// same way (without `away`), and everyone gets the same user_status event.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { User, UserStatus } from '../../store/state.js';
import { targetUser } from './administer.js';
import { activeUserIds } from './access.js';
import { EXTRA_EMOJI_NAMES, UNICODE_EMOJI, isUnicodeEmojiCode, unicodeEmojiNames } from '../emoji/emoji-data.js';
import { requireHuman } from './roles.js';
import { changeUserSetting } from './setting-change.js';

export interface StatusChange {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export type EmojiType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

/** The spec calls the server's extra emoji service_extra_emoji; the real server zulip_extra_emoji. */
const normalType = (t: string | undefined): EmojiType | undefined =>
  t === 'zulip_extra_emoji' ? 'service_extra_emoji' : (t as EmojiType | undefined);

/** `names`: the Unicode emoji names of the request's level (unicodeEmojiNames). */
export function emojiByName(store: Store, name: string, names = UNICODE_EMOJI): { code: string; type: EmojiType } {
  const custom = store.realmEmoji.find((e) => e.name === name && !e.deactivated);
  if (custom) return { code: String(custom.id), type: 'realm_emoji' };
  if (EXTRA_EMOJI_NAMES.has(name)) return { code: name, type: 'service_extra_emoji' };
  if (Object.hasOwn(names, name)) return { code: names[name], type: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Name, code and type must name the same emoji (the real server's wording for each mismatch). */
export function checkEmoji(store: Store, name: string, code: string, type: EmojiType, names = UNICODE_EMOJI): void {
  if (type === 'realm_emoji') {
    const custom = store.realmEmoji.get(Number(code));
    if (!custom || String(custom.id) !== code) throw badRequest('Invalid custom emoji.');
    if (custom.name !== name) throw badRequest('Invalid custom emoji name.');
    if (custom.deactivated) throw badRequest('This custom emoji has been deactivated.');
  } else if (type === 'service_extra_emoji') {
    if (!EXTRA_EMOJI_NAMES.has(code)) throw badRequest('Invalid emoji code.');
    if (name !== code) throw badRequest('Invalid emoji name.');
  } else {
    if (!isUnicodeEmojiCode(code)) throw badRequest('Invalid emoji code.');
    if (!Object.hasOwn(names, name) || names[name] !== code) throw badRequest('Invalid emoji name.');
  }
}

export function updateStatus(ctx: Ctx, change: StatusChange): void {
  requireHuman(ctx.actor);
  changeStatus(ctx, ctx.actor, change);
}

export function updateStatusForUser(ctx: Ctx, userId: number, change: Omit<StatusChange, 'away'>): void {
  // As the real server: a bot caller is refused first; then the target is looked up (no such
  // user, deactivated) before "Insufficient permission" for a caller who may not administer it.
  requireHuman(ctx.actor);
  changeStatus(ctx, targetUser(ctx.store, ctx.actor, userId, { forAdmin: true }), change);
}

function changeStatus(ctx: Ctx, actor: User, change: StatusChange): void {
  const { store } = ctx;
  const names = unicodeEmojiNames(ctx.supports('emoji_smile_renamed'));
  const text = change.status_text?.trim();
  if (change.away === undefined && text === undefined && change.emoji_name === undefined) {
    throw badRequest('Client did not pass any new values.');
  }

  let emoji: { name: string; code: string; type: EmojiType | '' } | undefined;
  if (change.emoji_name === '') {
    // An empty name clears the emoji, whatever code and type came with it.
    emoji = { name: '', code: '', type: '' };
  } else if (change.emoji_name !== undefined) {
    let code = change.emoji_code;
    let type = normalType(change.reaction_type);
    if (code === undefined || type === undefined) {
      const found = emojiByName(store, change.emoji_name, names);
      code ??= found.code;
      type ??= found.type;
    }
    checkEmoji(store, change.emoji_name, code, type, names);
    emoji = { name: change.emoji_name, code, type };
  } else if (change.emoji_code || change.reaction_type) {
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }

  if (change.away !== undefined) changeUserSetting(ctx, actor, 'presence_enabled', !change.away, true);
  const status: UserStatus = { ...actor.status };
  if (text !== undefined) status.status_text = text;
  if (emoji) Object.assign(status, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
  store.users.update(actor, { status });

  const event: Record<string, unknown> = { type: 'user_status', user_id: actor.user_id };
  if (change.away !== undefined) event.away = change.away;
  if (text !== undefined) event.status_text = text;
  if (emoji)
    Object.assign(event, {
      emoji_name: emoji.name,
      emoji_code: emoji.code,
      reaction_type: emoji.type || 'unicode_emoji',
    });
  ctx.events.publish(activeUserIds(store), event);
}
