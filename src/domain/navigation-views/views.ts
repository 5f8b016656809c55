// Views of the navigation view operations, by operationId.
import type { ViewTable } from '../context.js';
import { addNavigationView, editNavigationView, removeNavigationView } from './manage.js';
import { navigationViewState } from './register-state.js';

export const views: ViewTable = {
  'get-navigation-views': (ctx) => navigationViewState(ctx.store, ctx.actor),
  'add-navigation-view': (ctx, p) =>
    addNavigationView(ctx, ctx.actor, { fragment: p.fragment, is_pinned: p.is_pinned, name: p.name }),
  'edit-navigation-view': (ctx, p) =>
    editNavigationView(ctx, ctx.actor, { fragment: p.fragment, is_pinned: p.is_pinned, name: p.name }),
  'remove-navigation-view': (ctx, p) => removeNavigationView(ctx, ctx.actor, p.fragment),
};
