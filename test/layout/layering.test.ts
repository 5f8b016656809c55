// The layering of src/ is a rule held by a tool: `npm run lint` runs dependency-cruiser with
// .dependency-cruiser.cjs. These tests show that each of its rules fails a tree that breaks it
// (a scratch tree with one import of each kind), that the real tree keeps them, and that
// ARCHITECTURE.md maps every folder under src/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/**
 * Runs the checker as `npm run lint` does, on the src/ of `dir`: its exit status and the
 * violations it prints, as [rule, from, to] (to is empty for a cycle, printed over several lines).
 */
function check(dir: string): { status: number | null; violations: Array<[string, string, string]> } {
  const run = spawnSync(
    process.execPath,
    [depcruise, 'src', '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'err'],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  if (run.error) throw run.error;
  const violations = [...run.stdout.matchAll(/^ *error (\S+): (\S+) →(?: (\S+))?/gm)].map(
    (m): [string, string, string] => [m[1], m[2], m[3] ?? ''],
  );
  return { status: run.status, violations };
}

const scratch = mkdtempSync(path.join(tmpdir(), 'teamchat-layering-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
  writeFileSync(path.join(scratch, file), text);
}

describe('the layering rule', () => {
  it('fails each import that breaks it, by rule name, and lets downward imports through', () => {
    write('tsconfig.json', readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
    write('src/errors.ts', 'export const oops = 1;\n');
    // Downward: allowed.
    write('src/domain/render.ts', "import { oops } from '../errors.js';\nexport const render = oops;\n");
    // The store (ground) reading a domain check, as fixture.ts once did.
    write('src/store/fixture.ts', "import { render } from '../domain/render.js';\nexport const check = render;\n");
    // The HTTP edge importing a pipeline type: type-only imports count too.
    write('src/pipeline/call.ts', 'export interface Relay { level: number }\n');
    write('src/http/respond.ts', "import type { Relay } from '../pipeline/call.js';\nexport type Written = Relay;\n");
    // The world reaching up into control.
    write('src/control/clock.ts', 'export class Clock {}\n');
    write('src/world.ts', "import { Clock } from './control/clock.js';\nexport const clock = new Clock();\n");
    // A cycle inside one layer.
    write('src/domain/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    write('src/domain/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    // A folder no layer names.
    write('src/gadgets/tool.ts', "import { oops } from '../errors.js';\nexport const tool = oops;\n");

    const { status, violations } = check(scratch);
    expect(status).not.toBe(0);
    expect(violations).toEqual(
      expect.arrayContaining([
        ['no-upward-from-ground', 'src/store/fixture.ts', 'src/domain/render.ts'],
        ['no-upward-from-http', 'src/http/respond.ts', 'src/pipeline/call.ts'],
        ['no-upward-from-world', 'src/world.ts', 'src/control/clock.ts'],
        ['unlayered-file', 'src/gadgets/tool.ts', 'src/errors.ts'],
      ]),
    );
    // A cycle is reported once, from one of its files (the rest of the cycle on the lines below).
    expect(violations.filter(([rule]) => rule === 'no-circular').map(([, from]) => from)).toEqual([
      expect.stringMatching(/^src\/domain\/[ab]\.ts$/),
    ]);
    expect(violations.filter(([, from]) => from === 'src/domain/render.ts')).toEqual([]);
    expect(violations).toHaveLength(5);
  });

  it('holds on the real tree', { timeout: 120_000 }, () => {
    expect(check(root)).toEqual({ status: 0, violations: [] });
  });
});

describe('ARCHITECTURE.md', () => {
  const map = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
  const folders = readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));

  it('names every folder under src/ (a resource folder of src/domain/ by its name)', () => {
    const unnamed = folders.filter((f) => {
      const resource = /^src\/domain\/([^/]+)$/.exec(f);
      return resource ? !map.includes(`\`${resource[1]}\``) : !map.includes(`${f}/`);
    });
    expect(unnamed).toEqual([]);
  });
});
