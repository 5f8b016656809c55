// Saved snippets: reusable texts of one user.
import { badRequest } from '../../errors.js';
import type { SavedSnippet, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';

export function createSavedSnippet(
  world: WorldCtx,
  user: User,
  { title, content }: { title: string; content: string },
): SavedSnippet {
  const { store, events } = world;
  const now = world.clock.now();
  const trimmedTitle = title.trim();
  if (!trimmedTitle) throw badRequest('Title cannot be empty.');
  if (!content.trim()) throw badRequest('Content cannot be empty.');
  const snippet: SavedSnippet = {
    id: store.nextId('saved_snippets'),
    user_id: user.user_id,
    title: trimmedTitle,
    content,
    date_created: now,
  };
  store.savedSnippets.insert(snippet);
  const { id, date_created } = snippet;
  events.publish([user.user_id], {
    type: 'saved_snippets',
    op: 'add',
    saved_snippet: { id, title: trimmedTitle, content, date_created },
  });
  return snippet;
}
