// The README's credentials table must stay true to the embedded fixture.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultFixturePath, readStateFile } from '../src/store/fixture.js';

describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const state = readStateFile(defaultFixturePath());

  it('lists every active fixture user with the right API key and password', () => {
    for (const u of state.users.filter((x) => x.is_active)) {
      const row = readme.split('\n').find((line) => line.includes(`\`${u.email}\``) && line.startsWith('|'));
      expect(row, u.email).toBeDefined();
      expect(row).toContain(`\`${u.api_key}\``);
      expect(row).toContain(`\`${u.password}\``);
    }
  });

  it('gives the two commands that CI runs', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(readFileSync(new URL('../.ci/run', import.meta.url), 'utf8')).toMatch(/^npm ci && npm test$/m);
  });
});
