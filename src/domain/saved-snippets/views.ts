// Views of the saved snippets operations, by operationId.
import type { ViewTable } from '../context.js';
import { createSavedSnippet } from './create.js';
import { deleteSavedSnippet, listSavedSnippets } from './list-delete.js';
import { editSavedSnippet } from './edit.js';

export const views: ViewTable = {
  'create-saved-snippet': (ctx, p) => {
    const snippet = createSavedSnippet(ctx, ctx.actor, { title: p.title, content: p.content });
    return { saved_snippet_id: snippet.id };
  },
  'get-saved-snippets': (ctx) => listSavedSnippets(ctx),
  'edit-saved-snippet': (ctx, p) =>
    editSavedSnippet(ctx, ctx.actor, { snippetId: p.saved_snippet_id, title: p.title, content: p.content }),
  'delete-saved-snippet': (ctx, p) => deleteSavedSnippet(ctx, p.saved_snippet_id),
};
