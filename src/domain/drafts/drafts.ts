// Drafts kept on the server for the user's clients. Every operation needs the user's
// enable_drafts_synchronization on (turning it off deletes them: users/setting-change.ts); each
// change tells the user's clients with a `drafts` event.
import { ApiError, badRequest } from '../../errors.js';
import type { Draft, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { accessStreamContentById } from '../channels/access.js';
import { normalizeContent } from '../messages/check.js';
import { truncate } from '../messages/truncate.js';

/** A draft as a client sends it (the description's DraftsDraftInput). */
export interface DraftInput {
  type: Draft['type'];
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

/** The real server's topic length limit (MAX_TOPIC_NAME_LENGTH); longer topics are cut with "...". */

function checkDraftsEnabled(user: User): void {
  if (!user.settings.enable_drafts_synchronization) throw badRequest('User has disabled synchronizing drafts.');
}

const draftDict = (d: Draft) => ({
  id: d.id,
  type: d.type,
  to: [...d.to],
  topic: d.topic,
  content: d.content,
  timestamp: d.timestamp,
});

/** The draft's stored fields, once checked as the real server checks them. */
/** `maxTopicLength`: the server's max_topic_length; a longer topic is cut, not refused. */
function validDraft(
  world: WorldCtx,
  user: User,
  input: DraftInput,
  maxTopicLength: number,
): Omit<Draft, 'id' | 'user_id'> {
  const content = normalizeContent(input.content);
  const timestamp = input.timestamp ?? world.clock.now();
  if (timestamp < 0) throw badRequest('Timestamp must not be negative.');
  let to: number[] = [];
  let topic = '';
  if (input.type === 'stream') {
    topic = truncate(input.topic, maxTopicLength, '...');
    if (topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
    if (input.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    to = [accessStreamContentById(world.store, user, input.to[0]).stream_id];
  } else if (input.type === 'private') {
    to = [...new Set(input.to)].sort((a, b) => a - b);
    for (const id of to) if (!world.store.users.get(id)) throw badRequest(`Invalid user ID ${id}`);
  }
  return { type: input.type, to, topic, content, timestamp: Math.floor(timestamp) };
}

function ownDraft(world: WorldCtx, user: User, draftId: number): Draft {
  const draft = world.store.drafts.get(draftId);
  if (!draft || draft.user_id !== user.user_id) throw new ApiError('BAD_REQUEST', 'Draft does not exist', 404);
  return draft;
}

export function listDrafts(world: WorldCtx, user: User) {
  checkDraftsEnabled(user);
  const drafts = world.store.drafts
    .filter((d) => d.user_id === user.user_id)
    .sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
  return { count: drafts.length, drafts: drafts.map(draftDict) };
}

export function createDrafts(
  world: WorldCtx,
  user: User,
  { drafts, maxTopicLength }: { drafts: DraftInput[]; maxTopicLength: number },
): Draft[] {
  checkDraftsEnabled(user);
  // Every draft is checked before any is saved: one bad draft saves none.
  const valid = drafts.map((d) => validDraft(world, user, d, maxTopicLength));
  const created = valid.map((fields) => {
    const draft: Draft = { id: world.store.nextId('drafts'), user_id: user.user_id, ...fields };
    world.store.drafts.insert(draft);
    return draft;
  });
  world.events.publish([user.user_id], { type: 'drafts', op: 'add', drafts: created.map(draftDict) });
  return created;
}

export function editDraft(
  world: WorldCtx,
  user: User,
  { draftId, draft, maxTopicLength }: { draftId: number; draft: DraftInput; maxTopicLength: number },
): void {
  checkDraftsEnabled(user);
  const row = ownDraft(world, user, draftId);
  world.store.drafts.update(row, validDraft(world, user, draft, maxTopicLength));
  world.events.publish([user.user_id], {
    type: 'drafts',
    op: 'update',
    draft: draftDict(world.store.drafts.get(draftId)!),
  });
}

export function deleteDraft(world: WorldCtx, user: User, { draftId }: { draftId: number }): void {
  checkDraftsEnabled(user);
  world.store.drafts.remove(ownDraft(world, user, draftId));
  world.events.publish([user.user_id], { type: 'drafts', op: 'remove', draft_id: draftId });
}
