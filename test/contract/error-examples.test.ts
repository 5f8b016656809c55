// Every error message the domain code writes out as a literal (or a template) is one of the
// description's error examples: the examples are the scenarios' error catalogue and what client
// teams read, so a wording the mock can answer must be there. (Which operation may answer it is
// checked while the suite runs: test/setup/described-errors.ts.)
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ErrorCatalog } from '../../src/control/scenarios/error-catalog.js';
import { sharedContract } from '../../src/server.js';

const DOMAIN = new URL('../../src/domain/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The first argument of badRequest(...) / new ApiError(CODE, ...) when it is a string literal or a template. */
const THROWN =
  /(?:badRequest|new ApiError\(\s*'[A-Z_]+'\s*,)\s*\(?\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)/g;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern matching every message the literal can produce (a template's holes match anything). */
function patternOf(literal: string): RegExp {
  const body = literal.slice(1, -1);
  if (literal[0] === '`')
    return new RegExp(
      `^${body
        .split(/\$\{[^}]*\}/)
        .map(escape)
        .join('.*')}$`,
    );
  return new RegExp(`^${escape(body.replace(literal[0] === "'" ? /\\'/g : /\\"/g, literal[0]))}$`);
}

describe('error wording', () => {
  const contract = sharedContract();
  const catalog = new ErrorCatalog(contract);
  const described = contract.operations.flatMap((op) => catalog.errorExamples(op.id).map((e) => String(e.body.msg)));

  it('finds the literals it checks', () => {
    const count = sources(DOMAIN).reduce((n, f) => n + [...readFileSync(f, 'utf8').matchAll(THROWN)].length, 0);
    expect(count).toBeGreaterThan(250);
  });

  it('every literal error message of src/domain is described as an example', () => {
    const missing: string[] = [];
    for (const file of sources(DOMAIN)) {
      for (const [, literal] of readFileSync(file, 'utf8').matchAll(THROWN)) {
        const pattern = patternOf(literal);
        if (!described.some((msg) => pattern.test(msg))) missing.push(`${path.relative(DOMAIN, file)}: ${literal}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every error example has a name, unique within its operation (scenarios pick examples by name)', () => {
    const problems: string[] = [];
    for (const op of contract.operations) {
      const names = catalog.exampleNames(op.id) ?? [];
      const twice = names.filter((n, i) => names.indexOf(n) !== i);
      if (twice.length) problems.push(`${op.id}: ${[...new Set(twice)].join(', ')} twice`);
      if (catalog.errorExamples(op.id).some((e) => e.name === null))
        problems.push(`${op.id}: an error example without a name`);
    }
    expect(problems).toEqual([]);
  });

  it('error examples are whole: a msg and a code, no key left over from a comma in a flow mapping', () => {
    const broken = contract.operations.flatMap((op) =>
      catalog
        .errorExamples(op.id)
        .filter((e) => typeof e.body.msg !== 'string' || Object.values(e.body).some((v) => v === null))
        .map((e) => `${op.id} ${e.name}: ${JSON.stringify(e.body)}`),
    );
    expect([...new Set(broken)]).toEqual([]);
  });
});
