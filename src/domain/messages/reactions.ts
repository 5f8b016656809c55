// Emoji reactions (POST/DELETE /messages/{message_id}/reactions). A reaction is identified by
// (user, emoji_code, reaction_type); the name only labels it. Reacting with a code someone already
// used counts as a vote for that reaction and takes its name. Everyone who can see the message
// gets a `reaction` event.
import { ApiError, badRequest } from '../../errors.js';
import type { Message, Reaction, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { checkEmoji, emojiByName, type EmojiType } from '../users/status.js';
import { accessMessage } from './access.js';
import { apiEmailsByQueueLevel, organizationDisplayEmail } from '../users/email-visibility.js';
import { audienceOf } from './audience.js';
import { reactorVisibilityAfterReaction } from '../user-topics/automatic.js';
import { setTopicVisibility } from '../user-topics/set-visibility.js';

type ReactionType = Reaction['reaction_type'];

const reactionExists = () => new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
const reactionDoesNotExist = () => new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");

/** The status code calls the server's extra emoji service_extra_emoji; reactions call them zulip_extra_emoji. */
const toReaction = (t: EmojiType): ReactionType => (t === 'service_extra_emoji' ? 'zulip_extra_emoji' : t);
const toStatus = (t: string): EmojiType => (t === 'zulip_extra_emoji' ? 'service_extra_emoji' : (t as EmojiType));

function notify(
  { store, events }: WorldCtx,
  user: User,
  message: Message,
  reaction: Omit<Reaction, 'user_id'>,
  op: 'add' | 'remove',
): void {
  const event = {
    type: 'reaction',
    op,
    user_id: user.user_id,
    // Deprecated duplicate of user_id, still sent by the real server.
    user: { user_id: user.user_id, email: user.email, full_name: user.full_name },
    message_id: message.id,
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: reaction.reaction_type,
  };
  // Below feature level 163 the user's API email is the one the organization's setting gives.
  const older = () => ({ ...event, user: { ...event.user, email: organizationDisplayEmail(store.realm, user) } });
  events.publish(audienceOf(store, [message]), event, apiEmailsByQueueLevel(event, older));
}

export interface ReactionInput {
  messageId: number;
  /** The Unicode emoji names of the request's level (unicodeEmojiNames); the newest by default. */
  emojiNames?: Readonly<Record<string, string>>;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

export function addReaction(world: WorldCtx, user: User, input: ReactionInput): void {
  const { store } = world;
  const message = accessMessage(store, user, input.messageId);
  let name = input.emojiName!;
  let code = input.emojiCode;
  let type = input.reactionType as ReactionType | undefined;
  if (code === undefined || type === undefined) {
    const found = emojiByName(store, name, input.emojiNames);
    code ??= found.code;
    type ??= toReaction(found.type);
  }
  const same = (r: Reaction) => r.emoji_code === code && r.reaction_type === type;
  if (message.reactions.some((r) => same(r) && r.user_id === user.user_id)) throw reactionExists();
  const vote = message.reactions.find(same);
  if (vote) name = vote.emoji_name;
  else checkEmoji(store, name, code, toStatus(type), input.emojiNames);

  const reaction: Reaction = { emoji_name: name, emoji_code: code, reaction_type: type, user_id: user.user_id };
  const key = String(user.user_id);
  // Reacting to a message one never received makes it one's own (a "historical" row), so that
  // later changes to it reach the user.
  const flags = key in message.flags ? message.flags : { ...message.flags, [key]: ['read', 'historical'] };
  store.messages.update(message, { reactions: [...message.reactions, reaction], flags });
  const policy = reactorVisibilityAfterReaction(store, user, message);
  if (policy !== null)
    setTopicVisibility(world, user.user_id, { streamId: message.stream_id!, topic: message.topic, policy });
  notify(world, user, message, reaction, 'add');
}

export function removeReaction(world: WorldCtx, user: User, input: ReactionInput): void {
  const { store } = world;
  const message = accessMessage(store, user, input.messageId);
  let code = input.emojiCode;
  const type = (input.reactionType ?? 'unicode_emoji') as ReactionType;
  if (code === undefined) {
    if (input.emojiName === undefined)
      throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    code = emojiByName(store, input.emojiName, input.emojiNames).code;
  }
  const mine = message.reactions.find(
    (r) => r.user_id === user.user_id && r.emoji_code === code && r.reaction_type === type,
  );
  if (!mine) throw reactionDoesNotExist();
  store.messages.update(message, { reactions: message.reactions.filter((r) => r !== mine) });
  notify(world, user, message, mine, 'remove');
}
