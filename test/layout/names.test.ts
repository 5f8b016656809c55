// The layout says what things are: files are named for their resource or subject, not for when
// they were added (nor kept, when named for a resource of src/domain/, outside its test folder),
// and the manual's table of description fragments (docs/contributing.md) lists the
// fragments there are.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every file and folder below `dir`, relative to the repository root. */
function namesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((name) => path.join(dir, name));
}

describe('the layout', () => {
  it('has no file or folder in openapi/, src/ or test/ named -client, -manage or -legacy', () => {
    const historical = [...namesUnder('openapi'), ...namesUnder('src'), ...namesUnder('test')].filter((name) =>
      /-(client|manage|legacy)\b/.test(name),
    );
    expect(historical).toEqual([]);
  });

  it("keeps a test file named for a resource of src/domain/ in that resource's test folder", () => {
    // realm-url tests the site the server listens at (world and server), not the realm resource.
    const machinery = new Set([path.join('test', 'http', 'realm-url.test.ts')]);
    const resources = readdirSync(path.join(root, 'src/domain'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const astray = namesUnder('test')
      .filter((file) => file.endsWith('.test.ts') && !machinery.has(file))
      .filter((file) => {
        const name = path.basename(file);
        const folder = path.basename(path.dirname(file));
        return resources.some((r) => r !== folder && (name.startsWith(`${r}-`) || name === `${r}.test.ts`));
      });
    expect(astray).toEqual([]);
  });

  it('lists every fragment of openapi/paths/ in docs/contributing.md, and no other', () => {
    const table = readFileSync(path.join(root, 'docs/contributing.md'), 'utf8');
    const listed = [...table.matchAll(/^\| ([^|]*\.yaml[^|]*) \|/gm)].flatMap((m) =>
      [...m[1].matchAll(/`([\w-]+\.yaml)`/g)].map((x) => x[1]),
    );
    const fragments = readdirSync(path.join(root, 'openapi/paths')).filter((f) => f.endsWith('.yaml'));
    expect(listed.sort()).toEqual(fragments.sort());
  });
});
