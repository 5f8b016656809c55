// GET /realm/emoji: the organization's custom emoji keyed by ID, deactivated ones included (the
// registration response's realm_emoji).
import type { Ctx } from '../context.js';
import { realmEmojiState } from '../events/state-realm.js';

export function customEmoji(ctx: Ctx): { emoji: Record<string, unknown> } {
  return { emoji: realmEmojiState(ctx.store).realm_emoji as Record<string, unknown> };
}
