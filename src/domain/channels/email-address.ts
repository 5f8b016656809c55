// GET /streams/{id}/email_address: the address that posts emails into the channel, in the real
// server's form `<name-slug>.<token>.show-sender@<email gateway domain>`. Like the real server,
// each (channel, caller, sender) gets its own token; the mock derives it from those IDs so that it
// stays the same across calls and restarts without being stored.
import { createHash } from 'node:crypto';
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { Stream, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { holdsSetting } from '../group-settings/membership.js';
import { accessStreamContentById } from './access.js';

/** may post per can_send_message_group; a bot also may when its owner may. */
function canPost(store: Store, user: User, stream: Stream): boolean {
  if (holdsSetting(store, stream.can_send_message_group, user.user_id)) return true;
  return (
    user.is_bot && user.bot_owner_id !== null && holdsSetting(store, stream.can_send_message_group, user.bot_owner_id)
  );
}

/** The gateway bot (the default), the caller, or a bot the caller owns. */
function resolveSender(ctx: Ctx, senderId: number | undefined): User {
  const { store, actor } = ctx;
  const gatewayBot = store.users.get(store.realm.email_gateway_bot_id)!;
  if (senderId === undefined || senderId === gatewayBot.user_id) return gatewayBot;
  if (senderId === actor.user_id) return actor;
  const bot = store.users.get(senderId);
  if (!bot || !bot.is_bot) throw badRequest('No such bot');
  if (bot.bot_owner_id !== actor.user_id) throw insufficientPermission();
  return bot;
}

/**
 * The name part: runs of non-word characters become one hyphen, then the name is reduced to
 * lower-case ASCII; if that loses letters the name part is dropped (the address then says
 * `channel`), as on the real server.
 */
function channelEmailSlug(name: string): string {
  const hyphened = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const slug = hyphened
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return slug.length === Array.from(hyphened).length ? slug : '';
}

function channelEmailToken(ctx: Ctx, stream: Stream, sender: User): string {
  const seed = `${ctx.store.realm.id}:${stream.stream_id}:${ctx.actor.user_id}:${sender.user_id}`;
  return createHash('sha256').update(seed).digest('hex').slice(0, 32);
}

export function streamEmailAddress(ctx: Ctx, streamId: number, senderId: number | undefined): { email: string } {
  const { store, actor } = ctx;
  const stream = accessStreamContentById(store, actor, streamId);
  if (!canPost(store, actor, stream)) throw badRequest('You do not have permission to post in this channel.');
  const sender = resolveSender(ctx, senderId);
  const token = channelEmailToken(ctx, stream, sender);
  const local = `${channelEmailSlug(stream.name) || 'channel'}.${token}.show-sender`;
  return { email: `${local}@${store.realm.email_gateway_domain}` };
}

/** The address old servers put in each subscription (email_address, removed at FL 226). */
export function legacyEmailAddress(ctx: Ctx, stream: Stream): string {
  const gateway = ctx.store.users.get(ctx.store.realm.email_gateway_bot_id)!;
  return `${channelEmailSlug(stream.name) || 'channel'}.${channelEmailToken(ctx, stream, gateway)}@${ctx.store.realm.email_gateway_domain}`;
}
