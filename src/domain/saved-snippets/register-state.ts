// The `saved_snippets` section of the registration state.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';

export function savedSnippetState(store: Store, actor: User): Record<string, unknown> {
  return {
    saved_snippets: store.savedSnippets
      .filter((s) => s.user_id === actor.user_id)
      .map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: s.date_created })),
  };
}
