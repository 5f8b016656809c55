// The README's credentials table must stay true to the embedded fixture, and so must every API key
// an example of the README or the manual (docs/) writes beside a user's email.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { embeddedFixturePath, readStateFile } from '../src/store/fixture.js';
import { manualFiles, read } from './docs/markdown.js';

describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  // The fixture a user's `npm start` serves (the suite's own servers start from the classic one).
  const state = readStateFile(embeddedFixturePath('default'));

  it('lists every active fixture user with the right ID, API key and password', () => {
    for (const u of state.users.filter((x) => x.is_active)) {
      const row = readme.split('\n').find((line) => line.includes(`\`${u.email}\``) && line.startsWith('|'));
      expect(row, u.email).toBeDefined();
      expect(row).toContain(`| ${u.user_id} |`);
      expect(row).toContain(`\`${u.api_key}\``);
      expect(row).toContain(`\`${u.password}\``);
    }
  });

  it("writes in its examples, and in the manual's, only API keys of the user named on the same line", () => {
    const keyOf = new Map(state.users.map((u) => [u.api_key, u.email]));
    const wrong: string[] = [];
    for (const file of manualFiles()) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const [token] of line.matchAll(/\b[A-Za-z0-9]{32}\b/g)) {
            const email = keyOf.get(token);
            if (!email || !line.includes(email))
              wrong.push(`${file}:${i + 1}: ${token} is not the key of a user named on that line`);
          }
        });
    }
    expect(wrong).toEqual([]);
  });

  it('gives the two commands that CI runs', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(readFileSync(new URL('../.ci/run', import.meta.url), 'utf8')).toMatch(/^npm ci && npm test$/m);
  });
});
