// The e-mail domains the organization accepts (GET/POST /realm/domains, PATCH/DELETE
// /realm/domains/{domain}): owners change them, checked and worded as the real server does, and
// everyone gets the realm_domains event. Removing the last domain lifts the restriction to them.
import { ApiError, badRequest } from '../../errors.js';
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { activeUserIds } from '../users/access.js';
import { isOwner } from '../users/roles.js';
import { currentSetting, storeSettings } from './setting-values.js';

type Domain = NonNullable<WorldCtx['store']['realm']['domains']>[number];

const mustBeOwner = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
const domainsOf = (world: WorldCtx): Domain[] => world.store.realm.domains ?? [];

function requireOwner(actor: User): void {
  if (!isOwner(actor)) throw mustBeOwner();
}

/** The real server's validate_domain: the first rule the domain breaks, or null. */
function domainProblem(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const part of domain.split('.')) {
    if (!part) return "Consecutive '.' are not allowed.";
    if (part.startsWith('-') || part.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(part)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

/** The domains as GET /realm/domains and register's realm_domains show them (no IDs). */
export const domainsForApi = (store: Store) =>
  (store.realm.domains ?? []).map(({ domain, allow_subdomains }) => ({ domain, allow_subdomains }));

/** Entries without an ID (a fixture's) count by position, so that IDs are never handed out twice. */
const idOf = (d: Domain, index: number) => d.id ?? index + 1;

export function addDomain(
  world: WorldCtx,
  actor: User,
  input: { domain: string; allow_subdomains: boolean },
): { new_domain: [number, string] } {
  requireOwner(actor);
  const domain = input.domain.trim().toLowerCase();
  const problem = domainProblem(domain);
  if (problem) throw badRequest(`Invalid domain: ${problem}`);
  const domains = domainsOf(world);
  if (domains.some((d) => d.domain === domain))
    throw badRequest(`The domain ${domain} is already a part of your organization.`);
  const id = Math.max(0, ...domains.map(idOf)) + 1;
  world.store.updateRealm({ domains: [...domains, { id, domain, allow_subdomains: input.allow_subdomains }] });
  world.events.publish(activeUserIds(world.store), {
    type: 'realm_domains',
    op: 'add',
    realm_domain: { domain, allow_subdomains: input.allow_subdomains },
  });
  return { new_domain: [id, domain] };
}

function existing(world: WorldCtx, actor: User, domain: string): Domain {
  requireOwner(actor);
  const found = domainsOf(world).find((d) => d.domain === domain);
  if (!found) throw badRequest(`No entry found for domain ${domain}.`);
  return found;
}

export function changeDomain(world: WorldCtx, actor: User, input: { domain: string; allow_subdomains: boolean }): void {
  const found = existing(world, actor, input.domain);
  world.store.updateRealm({
    domains: domainsOf(world).map((d) => (d === found ? { ...d, allow_subdomains: input.allow_subdomains } : d)),
  });
  world.events.publish(activeUserIds(world.store), {
    type: 'realm_domains',
    op: 'change',
    realm_domain: { domain: found.domain, allow_subdomains: input.allow_subdomains },
  });
}

export function removeDomain(world: WorldCtx, actor: User, input: { domain: string }): void {
  const found = existing(world, actor, input.domain);
  const rest = domainsOf(world).filter((d) => d !== found);
  world.store.updateRealm({ domains: rest });
  const audience = activeUserIds(world.store);
  world.events.publish(audience, { type: 'realm_domains', op: 'remove', domain: found.domain });
  if (rest.length === 0 && currentSetting(world.store.realm, 'emails_restricted_to_domains') === true) {
    storeSettings(world.store, { emails_restricted_to_domains: false });
    world.events.publish(audience, {
      type: 'realm',
      op: 'update',
      property: 'emails_restricted_to_domains',
      value: false,
    });
  }
}
