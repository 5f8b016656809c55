// A linkifier pattern RE2 cannot compile (the real server's engine) is refused on every way into
// a state, as the linkifier operations refuse it: fixture, import, scenario state patch. The
// refusal names the JSON path and changes nothing.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { MockServer } from '../../src/server.js';

const root = new URL('../..', import.meta.url).pathname;
// Lookahead: JavaScript's engine takes it, RE2 does not.
const LOOKAHEAD = '#(?P<id>[0-9]+)(?=x)';
let t: TestServer;
serverPerTest((server) => (t = server));

async function control(method: string, route: string, body?: unknown) {
  const res = await fetch(`${t.base}/__mock${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('linkifier patterns in a state', () => {
  it('PUT /__mock/state refuses a pattern RE2 cannot compile, naming the path', async () => {
    const before = (await control('GET', '/state')).body.state;
    const state = structuredClone(before);
    state.linkifiers[1].pattern = LOOKAHEAD;
    const r = await control('PUT', '/state', { state });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^state: \$\.linkifiers\[1\]\.pattern: Bad regular expression: /);
    expect((await control('GET', '/state')).body.state).toEqual(before);
  });

  it('a scenario state patch with such a pattern is refused before it touches the state', async () => {
    const before = (await control('GET', '/state')).body.state;
    const linkifiers = [{ ...before.linkifiers[0], pattern: LOOKAHEAD }];
    const r = await control('POST', '/scenarios', {
      definition: { name: 'lookahead', state: { linkifiers }, rules: [] },
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^scenario 'lookahead': \$\.linkifiers\[0\]\.pattern: Bad regular expression: /);
    expect((await control('GET', '/state')).body.state).toEqual(before);
    expect((await control('GET', '/scenarios')).body.active).toEqual([]);
  });

  it('a fixture with such a pattern stops the start with the file and the path', () => {
    const fixture = JSON.parse(readFileSync(path.join(root, 'fixtures/default.json'), 'utf8'));
    fixture.linkifiers[0].pattern = '(a)\\1';
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'teamchat-linkifier-')), 'fixture.json');
    writeFileSync(file, JSON.stringify(fixture));
    expect(() => new MockServer({ fixture: file, log: () => {} })).toThrow(
      `${file}: $.linkifiers[0].pattern: Bad regular expression: `,
    );
  });

  it('RE2 patterns the real server accepts still load', async () => {
    const state = (await control('GET', '/state')).body.state;
    state.linkifiers[1].pattern = '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)';
    expect((await control('PUT', '/state', { state })).status).toBe(200);
  });
});
