// The renderings the build makes for the shipped fixture (src/domain/render/prerendered.ts): a
// fresh start answers them, and its answers are byte for byte those of a server that renders
// (without them, after a change and back, on a fixture the build did not render). Run from the
// sources, the test makes them as scripts/build.mjs does and adds them, as the bundle carries them.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRenderings, renderingsAtStart, type Renderings } from '../../src/domain/render/prerendered.js';
import { renderMarkdown } from '../../src/domain/render/markdown.js';
import { STATE_RULES } from '../../src/domain/state-rules.js';
import { embeddedFixturePath, readStateFile } from '../../src/store/fixture.js';
import { Store } from '../../src/store/store.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** What the build does for a state file (scripts/build.mjs, shippedFixture). */
function renderingsOf(file: string): Renderings {
  const store = new Store(readStateFile(file, STATE_RULES));
  const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
  return { [hash]: renderingsAtStart(store, (content, level) => renderMarkdown(store, content, null, level)) };
}

// Newest, before the smile rename (421), before invalid times as text (451), before ISO-only
// times (503) and before the time syntax (8): the render levels a description renders at
// (render-level.ts).
const LEVELS = [undefined, 420, 450, 502, 7];

/** GET /server_settings at each level, as the bytes answered (the server's own address left out). */
async function settingsBytes(t: TestServer): Promise<string[]> {
  const out: string[] = [];
  for (const level of LEVELS) {
    const res = await fetch(`${t.base}/api/v1/server_settings`, {
      headers: level === undefined ? {} : { 'x-mock-feature-level': String(level) },
    });
    expect(res.status).toBe(200);
    out.push((await res.text()).replaceAll(t.base, 'BASE'));
  }
  return out;
}

/** The answers of a fresh server on `fixture`, with `renderings` added while it answers. */
async function freshAnswers(fixture: string, renderings: Renderings | null, warmUp = false): Promise<string[]> {
  const takeBack = renderings ? addRenderings(renderings) : () => {};
  const t = await startTestServer({ fixture });
  try {
    if (warmUp) {
      // A linkifier added and removed: the state reads the same, but the store no longer holds
      // the file as read, so the renderer runs.
      const iago = t.as('iago');
      const added = await iago.post('/realm/filters', {
        pattern: 'T(?P<id>[0-9]+)',
        url_template: 'https://t.example/{id}',
      });
      expect(added.status).toBe(200);
      expect((await iago.delete(`/realm/filters/${added.body.id}`)).status).toBe(200);
    }
    return await settingsBytes(t);
  } finally {
    await t.close();
    takeBack();
  }
}

let dir: string;
let custom: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-prerendered-'));
  // A description every part of the renderer has a say in: an emoji whose name changed meaning
  // at the smile rename, a linkifier, a mention, a channel link and Markdown.
  const state = JSON.parse(readFileSync(embeddedFixturePath('default'), 'utf8'));
  state.realm.description =
    'Dev org :smile: see zulip-mobile#1234 and #D123, ask @**King Hamlet** in #**Denmark** at <time:2017-06-05T22:30:00Z>.\n\n> **quoted** `code`';
  custom = path.join(dir, 'custom.json');
  writeFileSync(custom, JSON.stringify(state));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('renderings made by the build', () => {
  it('are what a fresh start on their file answers (a planted one shows it), until a change', async () => {
    const file = embeddedFixturePath('default');
    const [hash] = Object.keys(renderingsOf(file));
    const planted = Object.fromEntries(
      Object.keys(renderingsOf(file)[hash]).map((key) => [key, `<p>planted ${key.split('\n')[0]}</p>`]),
    );
    const fresh = await freshAnswers(file, { [hash]: planted });
    expect(fresh.map((b) => JSON.parse(b).realm_description)).toEqual([
      '<p>planted newest-emoji/iso</p>',
      '<p>planted before-smile-rename/lenient</p>',
      '<p>planted newest-emoji/lenient</p>',
      '<p>planted newest-emoji/lenient-as-text</p>',
      '<p>planted before-smile-rename/none</p>',
    ]);
    const changed = await freshAnswers(file, { [hash]: planted }, true);
    expect(changed.map((b) => JSON.parse(b).realm_description)).not.toContain('<p>planted newest-emoji/iso</p>');
  });

  for (const [name, file] of [
    ['the shipped fixture', () => embeddedFixturePath('default')],
    ['a fixture whose description uses every part of the renderer', () => custom],
  ] as const) {
    it(`answer the same bytes as the renderer: ${name}`, async () => {
      const rendered = await freshAnswers(file(), null);
      const fromBuild = await freshAnswers(file(), renderingsOf(file()));
      expect(fromBuild).toEqual(rendered);
      expect(await freshAnswers(file(), renderingsOf(file()), true)).toEqual(rendered);
      // The two levels differ where the emoji changed meaning.
      if (file() === custom) expect(rendered[0]).not.toBe(rendered[1]);
    });
  }

  it('are not taken for a fixture the build did not render', async () => {
    const other = embeddedFixturePath('classic');
    const rendered = await freshAnswers(other, null);
    expect(await freshAnswers(other, renderingsOf(embeddedFixturePath('default')))).toEqual(rendered);
    expect(await freshAnswers(custom, renderingsOf(embeddedFixturePath('default')))).toEqual(
      await freshAnswers(custom, null),
    );
  });
});
