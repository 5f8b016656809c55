// Saved snippets once created: GET /saved_snippets and DELETE /saved_snippets/{id}. Creating
// them: saved-snippets-create.test.ts.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { watchEvents } from '../helpers/events.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;

describe('saved snippets', () => {
  it("GET /saved_snippets lists the caller's snippets", async () => {
    const r = await t.as('hamlet').get('/saved_snippets');
    expect(r.body.saved_snippets).toEqual([
      { id: 1, title: 'Greeting', content: 'Hello **everyone**!', date_created: 1794398400 },
    ]);
  });

  it("DELETE /saved_snippets/{id} deletes it and tells the owner's clients", async () => {
    const seen = watchEvents(t);
    expect((await t.as('hamlet').delete('/saved_snippets/1')).status).toBe(200);
    expect((await t.as('hamlet').get('/saved_snippets')).body.saved_snippets).toEqual([]);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'saved_snippets', op: 'remove', saved_snippet_id: 1 }]);
  });

  it("answers 404 for another user's snippet and an unknown one", async () => {
    expectError(await t.as('iago').delete('/saved_snippets/1'), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
    expectError(await t.as('hamlet').delete('/saved_snippets/99'), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
    expect(store().savedSnippets.get(1)).toBeDefined();
  });
});
