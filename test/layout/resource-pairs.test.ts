// Resources of src/domain/ lean on one another in one direction where they can: events/ imports
// the resources to assemble POST /register, and a resource imports events/ only to publish (its
// publishing surface); two resources that import each other are counted, and held to a budget;
// and a resource imports another only through the files that one offers (its public surface).
// Type-only imports count too: they tie two folders together as much as any other.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const domain = path.join(root, 'src/domain');

/** Pairs of resource folders that import each other, at most (25 before resources owned their register state). */
const MAX_PAIRS = 10;
/** What a resource may import from events/: publishing, nothing of queues, shaping or register. */
const EVENTS_PUBLISH_SURFACE = ['events/publish.ts'];

/**
 * The files each resource offers the others (beside `register-state.ts`, which events/ assembles,
 * and events/'s publishing surface). A resource not named offers nothing but its register state.
 * Growing a list is a decision about the resource's surface, to make on purpose: prefer using
 * what is offered, or moving a piece both need to the lower folder.
 */
const PUBLIC: Record<string, string[]> = {
  'alert-words': ['match'],
  channels: [
    'access',
    'activity',
    'add-subscriptions',
    'announce',
    'audience',
    'create',
    'deletion-event',
    'email-address',
    'first-message',
    'folders',
    'group-settings',
    'names',
    'realm-permissions',
    'stream-dict',
    'subscription-dict',
  ],
  emoji: ['emoji-data'],
  events: ['publish'],
  'group-settings': ['membership', 'values'],
  groups: ['access', 'settings'],
  notifications: ['notify'],
  outbox: ['email-change', 'links', 'message-text', 'missed-message-email', 'outbox'],
  messages: [
    'access',
    'check',
    'delete-topic',
    'edit-limit',
    'empty-topic',
    'errors',
    'format',
    'mark-read',
    'narrow',
    'send',
    'topics',
    'truncate',
  ],
  'muted-users': ['mute'],
  presence: ['timings'],
  realm: ['permission-state', 'profile-field-types', 'setting-values', 'welcome-bot'],
  push: ['devices', 'e2ee-envelope', 'legacy-payloads'],
  reminders: ['create'],
  render: ['html', 'inline-images', 'linkifiers', 'markdown', 'mentions', 'narrow-urls', 'quote', 'render-level'],
  subscriptions: ['principals'],
  uploads: ['image-size', 'links', 'upload'],
  'user-topics': ['automatic', 'set-visibility'],
  users: [
    'access',
    'administer',
    'avatar-upload',
    'avatar',
    'bot-audience',
    'create-user',
    'default-settings',
    'email-rules',
    'email-visibility',
    'email-visibility-change',
    'generated-avatar',
    'max-visible',
    'password-strength',
    'roles',
    'settings',
    'settings-state',
    'settings-values',
    'status',
  ],
};

/** Whether `file` (relative to src/domain/) is on its resource's public surface. */
function isPublic(file: string): boolean {
  const [resource, ...rest] = file.split(path.sep);
  const name = rest.join('/').replace(/\.ts$/, '');
  return (name === 'register-state' && resource !== 'events') || (PUBLIC[resource] ?? []).includes(name);
}

interface Import {
  /** The importing file, relative to src/domain/. */
  from: string;
  /** The imported file, relative to src/domain/ (with .ts for a module). */
  to: string;
}

const resources = readdirSync(domain).filter((name) => statSync(path.join(domain, name)).isDirectory());

/** Every relative import of every file of every resource folder (static, re-exports and dynamic). */
function domainImports(): Import[] {
  const out: Import[] = [];
  for (const resource of resources) {
    for (const name of readdirSync(path.join(domain, resource), { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts')) continue;
      const file = path.join(domain, resource, name);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.[^']+)'/g)) {
        const target = path.resolve(path.dirname(file), m[1]).replace(/\.js$/, '.ts');
        out.push({ from: path.relative(domain, file), to: path.relative(domain, target) });
      }
    }
  }
  return out;
}

const folderOf = (file: string) => (file.startsWith('..') || !file.includes(path.sep) ? null : file.split(path.sep)[0]);

/** "a<->b" for each pair of resource folders that import each other, sorted. */
function mutualPairs(imports: Import[]): string[] {
  const edges = new Set<string>();
  for (const { from, to } of imports) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (a && b && a !== b) edges.add(`${a} ${b}`);
  }
  const pairs = [...edges].map((edge) => edge.split(' ')).filter(([a, b]) => a < b && edges.has(`${b} ${a}`));
  return pairs.map(([a, b]) => `${a}<->${b}`).sort();
}

describe('the resources of src/domain/', () => {
  const imports = domainImports();

  it(`import each other in at most ${MAX_PAIRS} pairs of folders`, () => {
    const pairs = mutualPairs(imports);
    // Past the budget: move the piece both need to the lower folder or to a small shared module.
    expect(pairs.length, `pairs of folders importing each other:\n${pairs.join('\n')}`).toBeLessThanOrEqual(MAX_PAIRS);
  });

  it('import events/ only through its publishing surface', () => {
    const internals = imports
      .filter(
        ({ from, to }) =>
          folderOf(from) !== 'events' && folderOf(to) === 'events' && !EVENTS_PUBLISH_SURFACE.includes(to),
      )
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(internals).toEqual([]);
  });

  it('import one another only through the files each offers', () => {
    const internals = imports
      .filter(({ from, to }) => folderOf(to) !== null && folderOf(from) !== folderOf(to) && !isPublic(to))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(internals).toEqual([]);
  });

  it('offer only files that exist', () => {
    const missing = Object.entries(PUBLIC).flatMap(([resource, names]) =>
      names
        .filter((name) => !existsSync(path.join(domain, resource, `${name}.ts`)))
        .map((name) => `${resource}/${name}.ts`),
    );
    expect(missing).toEqual([]);
  });

  it('are counted by this test as the import graph has them', () => {
    // The counter itself must see the imports it counts: events/ assembles register from resources.
    expect(
      imports.some(
        ({ from, to }) =>
          from === path.join('events', 'initial-state.ts') && to === path.join('users', 'register-state.ts'),
      ),
    ).toBe(true);
    expect(
      mutualPairs([
        { from: 'a/x.ts', to: 'b/y.ts' },
        { from: 'b/y.ts', to: 'a/z.ts' },
        { from: 'a/x.ts', to: 'c/y.ts' },
      ]),
    ).toEqual(['a<->b']);
  });
});
