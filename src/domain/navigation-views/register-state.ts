// The navigation_views section of POST /register (and GET /navigation_views): one user's
// navigation views as clients see them, in the order they were added.
import type { Store } from '../../store/store.js';
import type { NavigationView, User } from '../../store/state.js';

export const navigationViewDict = (v: NavigationView) => ({
  fragment: v.fragment,
  is_pinned: v.is_pinned,
  name: v.name,
});

export function navigationViewState(
  store: Store,
  actor: User,
): { navigation_views: Array<ReturnType<typeof navigationViewDict>> } {
  return { navigation_views: [...store.navigationViews.group('user', actor.user_id)].map(navigationViewDict) };
}
