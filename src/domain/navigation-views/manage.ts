// Adding, changing and removing one's navigation views. Built-in views (the fixed list the real
// server knows) take no name; custom ones need one. Every change sends a navigation_view event to
// the owner's clients only.
import { ApiError, badRequest } from '../../errors.js';
import type { NavigationView, User } from '../../store/state.js';
import { navigationViewKey } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import { navigationViewDict } from './register-state.js';

const BUILT_IN_FRAGMENTS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
]);

const alreadyExists = () => badRequest('Navigation view already exists.');
const builtInNamed = () => badRequest('Built-in views cannot have a custom name.');
const doesNotExist = () => new ApiError('BAD_REQUEST', 'Navigation view does not exist.', 404);

function ownViews(world: WorldCtx, user: User): ReadonlySet<NavigationView> {
  return world.store.navigationViews.group('user', user.user_id);
}

const nameInUse = (world: WorldCtx, user: User, name: string) =>
  [...ownViews(world, user)].some((v) => v.name === name);

/** The real server trims both before its checks; a name blank once trimmed counts as none. */
function trimmedName(name: string | undefined): string | undefined {
  return name === undefined ? undefined : name.trim();
}

export function addNavigationView(
  world: WorldCtx,
  user: User,
  input: { fragment: string; is_pinned: boolean; name?: string },
): void {
  const fragment = input.fragment.trim();
  const name = trimmedName(input.name);
  if (BUILT_IN_FRAGMENTS.has(fragment)) {
    if (name !== undefined) throw builtInNamed();
  } else if (!name) {
    throw badRequest('Custom views must have a valid name.');
  }
  if (world.store.navigationViews.get(navigationViewKey(user.user_id, fragment))) throw alreadyExists();
  if (name && nameInUse(world, user, name)) throw alreadyExists();
  const view: NavigationView = { user_id: user.user_id, fragment, is_pinned: input.is_pinned, name: name || null };
  world.store.navigationViews.insert(view);
  world.events.publish([user.user_id], {
    type: 'navigation_view',
    op: 'add',
    navigation_view: navigationViewDict(view),
  });
}

function findView(world: WorldCtx, user: User, fragment: string): NavigationView {
  const view = world.store.navigationViews.get(navigationViewKey(user.user_id, fragment.trim()));
  if (!view) throw doesNotExist();
  return view;
}

export function editNavigationView(
  world: WorldCtx,
  user: User,
  input: { fragment: string; is_pinned?: boolean; name?: string },
): void {
  const fragment = input.fragment.trim();
  const name = trimmedName(input.name) || undefined;
  // The real server checks the name before it looks the view up: a taken name is refused even
  // for a fragment the caller has no view for.
  if (BUILT_IN_FRAGMENTS.has(fragment) && name !== undefined) throw builtInNamed();
  if (name !== undefined && nameInUse(world, user, name)) throw alreadyExists();
  const view = findView(world, user, fragment);
  const data: { name?: string; is_pinned?: boolean } = {};
  if (name !== undefined) data.name = name;
  if (input.is_pinned !== undefined) data.is_pinned = input.is_pinned;
  world.store.navigationViews.update(view, data);
  // Sent even when nothing was given, with empty data, as the real server does.
  world.events.publish([user.user_id], { type: 'navigation_view', op: 'update', fragment, data });
}

export function removeNavigationView(world: WorldCtx, user: User, fragment: string): void {
  const view = findView(world, user, fragment);
  world.store.navigationViews.remove(view);
  world.events.publish([user.user_id], { type: 'navigation_view', op: 'remove', fragment: view.fragment });
}
