// GET /saved_snippets and DELETE /saved_snippets/{id}: the caller's snippets and deleting one,
// with a saved_snippets/remove event to the owner's clients.
import { ApiError } from '../../errors.js';
import type { Ctx } from '../context.js';
import { savedSnippetState } from './register-state.js';

export function listSavedSnippets(ctx: Ctx): { saved_snippets: unknown[] } {
  return { saved_snippets: savedSnippetState(ctx.store, ctx.actor).saved_snippets as unknown[] };
}

export function deleteSavedSnippet(ctx: Ctx, snippetId: number): void {
  const row = ctx.store.savedSnippets.get(snippetId);
  if (!row || row.user_id !== ctx.actor.user_id)
    throw new ApiError('BAD_REQUEST', 'Saved snippet does not exist.', 404);
  ctx.store.savedSnippets.remove(row);
  ctx.events.publish([ctx.actor.user_id], { type: 'saved_snippets', op: 'remove', saved_snippet_id: snippetId });
}
