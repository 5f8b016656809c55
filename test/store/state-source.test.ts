// A fixture's bytes give a fresh, independent State on each call; the checks run on the first
// call only (sandboxes and resets skip them), and a file that fails them fails every call.
import { expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultFixturePath, FixtureError, stateSource } from '../../src/store/fixture.js';
import { STATE_RULES } from '../../src/domain/state-rules.js';

it('gives equal, independent copies, and checks the bytes once', () => {
  let checks = 0;
  const source = stateSource(defaultFixturePath(), [
    ...STATE_RULES,
    () => {
      checks++;
      return null;
    },
  ]);
  const first = source();
  const second = source();
  const third = source();
  expect(checks).toBe(1);
  expect(second).toEqual(first);
  expect(third.users).not.toBe(second.users);
  third.users[0].full_name = 'Changed';
  expect(source().users[0].full_name).toBe(first.users[0].full_name);
});

it('fills missing collections on every copy, and fails every call on a broken file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'teamchat-source-'));
  const broken = path.join(dir, 'broken.json');
  writeFileSync(broken, JSON.stringify({ users: [{ user_id: 'one' }] }));
  const source = stateSource(broken, STATE_RULES);
  expect(() => source()).toThrow(FixtureError);
  expect(() => source()).toThrow(FixtureError);
  const minimal = stateSource(defaultFixturePath(), STATE_RULES);
  minimal();
  expect(Array.isArray(minimal().drafts)).toBe(true);
});
