// The loader merges openapi/paths/ fragments into one document, and each path item must live
// whole in one fragment: a path split across two files stops the start with an error that names
// the path and both files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDescription } from '../../src/contract/load.js';

const ROOT = 'openapi: 3.1.0\ninfo: { title: t, version: 1.0.0 }\npaths: {}\ncomponents: {}\n';
const operation = (id: string) => `      operationId: ${id}\n      responses:\n        '200': { description: ok }\n`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'teamchat-fragments-'));
  mkdirSync(path.join(dir, 'paths'));
  writeFileSync(path.join(dir, 'api.yaml'), ROOT);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fragment = (name: string, text: string) => writeFileSync(path.join(dir, 'paths', name), text);

describe('loading the description from fragments', () => {
  it('merges the path items of every fragment into one document', () => {
    fragment(
      'messages.yaml',
      `paths:\n  /messages:\n    get:\n${operation('get-messages')}    post:\n${operation('send-message')}`,
    );
    fragment('users.yaml', `paths:\n  /users:\n    get:\n${operation('get-users')}`);
    const doc = loadDescription('api', dir);
    expect(Object.keys(doc.paths).sort()).toEqual(['/messages', '/users']);
    expect(Object.keys(doc.paths['/messages'])).toEqual(['get', 'post']);
  });

  it('refuses a path item split across two fragments, naming the path and both files', () => {
    fragment('messages.yaml', `paths:\n  /messages:\n    post:\n${operation('send-message')}`);
    fragment('reading.yaml', `paths:\n  /messages:\n    get:\n${operation('get-messages')}`);
    const first = path.join(dir, 'paths', 'messages.yaml');
    const second = path.join(dir, 'paths', 'reading.yaml');
    expect(() => loadDescription('api', dir)).toThrow(
      `path /messages is described in two files, ${first} and ${second}: a path item belongs in one fragment`,
    );
  });

  it('refuses a fragment that adds to a path item of the root document', () => {
    writeFileSync(
      path.join(dir, 'api.yaml'),
      ROOT.replace('paths: {}', `paths:\n  /users:\n    get:\n${operation('get-users')}`),
    );
    fragment('users.yaml', `paths:\n  /users:\n    post:\n${operation('create-user')}`);
    expect(() => loadDescription('api', dir)).toThrow(
      `path /users is described in two files, ${path.join(dir, 'api.yaml')} and ${path.join(dir, 'paths', 'users.yaml')}: a path item belongs in one fragment`,
    );
  });

  it('refuses a component defined in two fragments', () => {
    fragment('a.yaml', 'paths: {}\ncomponents:\n  schemas:\n    Thing: { type: string }\n');
    fragment('b.yaml', 'paths: {}\ncomponents:\n  schemas:\n    Thing: { type: integer }\n');
    expect(() => loadDescription('api', dir)).toThrow(
      `${path.join(dir, 'paths', 'b.yaml')}: components.schemas.Thing is already defined`,
    );
  });
});
