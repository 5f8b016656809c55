// POST /saved_snippets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;

describe('POST /saved_snippets', () => {
  it('saves a snippet for the user and returns saved_snippet_id', async () => {
    const q = await registerQueue(t, 'othello', ['saved_snippets']);
    const r = await t.as('othello').post('/saved_snippets', { title: 'Sign-off', content: 'Cheers, **Othello**' });
    expect(r.status).toBe(200);
    const id = r.body.saved_snippet_id;
    expect(r.body).toEqual({ result: 'success', msg: '', saved_snippet_id: id });
    const row = store().savedSnippets.get(id)!;
    expect(row).toEqual({
      id,
      user_id: t.user('othello').user_id,
      title: 'Sign-off',
      content: 'Cheers, **Othello**',
      date_created: row.date_created,
    });
    expect(Math.abs(row.date_created - t.server.clock.now())).toBeLessThanOrEqual(1);
    expect(await eventsOf(t, 'othello', q)).toEqual([
      {
        type: 'saved_snippets',
        op: 'add',
        id: 0,
        saved_snippet: { id, title: 'Sign-off', content: 'Cheers, **Othello**', date_created: row.date_created },
      },
    ]);
  });

  it('refuses an empty title or content', async () => {
    const before = store().savedSnippets.size;
    for (const title of ['', '   ']) {
      const r = await t.as('othello').post('/saved_snippets', { title, content: 'x' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'Title cannot be empty.'));
    }
    const r = await t.as('othello').post('/saved_snippets', { title: 'x', content: ' ' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Content cannot be empty.'));
    const missing = await t.as('othello').post('/saved_snippets', { content: 'x' });
    expect(missing.body).toEqual(error('REQUEST_VARIABLE_MISSING', "Missing 'title' argument", { var_name: 'title' }));
    expect(store().savedSnippets.size).toBe(before);
  });
});
