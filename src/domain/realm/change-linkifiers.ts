// Administrators add, change, remove and reorder the organization's linkifiers. After each change
// everyone receives the whole list again, as from the real server: `realm_linkifiers`, and the
// pre-FL 54 `realm_filters`, always empty since the URL became a template (old clients would read
// it as a format string).
import { badRequest } from '../../errors.js';
import type { ParamsOf, WorldCtx } from '../context.js';
import type { Linkifier, User } from '../../store/state.js';
import { requireAdmin } from '../users/roles.js';
import { activeUserIds } from '../users/access.js';
import { checkLinkifier } from './linkifier-checks.js';

const notFound = () => badRequest('Linkifier not found.');

function announce(world: WorldCtx): void {
  const audience = activeUserIds(world.store);
  world.events.publish(audience, {
    type: 'realm_linkifiers',
    realm_linkifiers: world.store.linkifiers.all().map((l) => structuredClone(l)),
  });
  world.events.publish(audience, { type: 'realm_filters', realm_filters: [] });
}

function linkifierOf(world: WorldCtx, id: number): Linkifier {
  const linkifier = world.store.linkifiers.get(id);
  if (!linkifier) throw notFound();
  return linkifier;
}

export function addLinkifier(world: WorldCtx, actor: User, input: ParamsOf<'add-linkifier'>): { id: number } {
  requireAdmin(actor);
  checkLinkifier(world.store, input.pattern, input.url_template);
  const id = world.store.nextId('linkifiers');
  world.store.linkifiers.insert({
    id,
    pattern: input.pattern,
    url_template: input.url_template,
    example_input: null,
    reverse_template: null,
    alternative_url_templates: [],
  });
  announce(world);
  return { id };
}

export function updateLinkifier(world: WorldCtx, actor: User, input: ParamsOf<'update-linkifier'>): void {
  requireAdmin(actor);
  const linkifier = linkifierOf(world, input.filter_id);
  checkLinkifier(world.store, input.pattern, input.url_template, linkifier.id);
  world.store.linkifiers.update(linkifier, { pattern: input.pattern, url_template: input.url_template });
  announce(world);
}

export function removeLinkifier(world: WorldCtx, actor: User, input: ParamsOf<'remove-linkifier'>): void {
  requireAdmin(actor);
  world.store.linkifiers.remove(linkifierOf(world, input.filter_id));
  announce(world);
}

export function reorderLinkifiers(world: WorldCtx, actor: User, input: ParamsOf<'reorder-linkifiers'>): void {
  requireAdmin(actor);
  const ids = input.ordered_linkifier_ids;
  if (new Set(ids).size !== ids.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
  const rows = ids.map((id) => world.store.linkifiers.get(id));
  if (rows.length !== world.store.linkifiers.all().length || rows.some((r) => !r)) {
    throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  }
  // The stored order is the order clients apply them in.
  for (const row of rows) world.store.linkifiers.remove(row!);
  for (const row of rows) world.store.linkifiers.insert(row!);
  announce(world);
}
