// PATCH /saved_snippets/{id}: a new title and/or content for one of the caller's snippets, with
// a saved_snippets/update event carrying the whole snippet. Nothing to change is no change: no
// event (the real server returns early so that clients get no spurious update).
import { ApiError, badRequest } from '../../errors.js';
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';

export function editSavedSnippet(
  world: WorldCtx,
  user: User,
  input: { snippetId: number; title?: string; content?: string },
): void {
  const { store, events } = world;
  if (input.title === undefined && input.content === undefined) return;
  const row = store.savedSnippets.get(input.snippetId);
  if (!row || row.user_id !== user.user_id) throw new ApiError('BAD_REQUEST', 'Saved snippet does not exist.', 404);
  const title = input.title?.trim();
  const content = input.content?.trim();
  if (title === '') throw badRequest('Title cannot be empty.');
  if (content === '') throw badRequest('Content cannot be empty.');
  store.savedSnippets.update(row, {
    ...(title !== undefined ? { title } : {}),
    ...(content !== undefined ? { content } : {}),
  });
  const saved = store.savedSnippets.get(input.snippetId)!;
  events.publish([user.user_id], {
    type: 'saved_snippets',
    op: 'update',
    saved_snippet: { id: saved.id, title: saved.title, content: saved.content, date_created: saved.date_created },
  });
}
