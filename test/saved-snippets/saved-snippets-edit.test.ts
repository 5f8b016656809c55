// PATCH /saved_snippets/{id}: a new title and/or content, the update event, refusals.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
});

const edit = (who: string, id: number, params: Record<string, unknown>) =>
  t.as(who).patch(`/saved_snippets/${id}`, params);
const snippets = async (who: string) => (await t.as(who).get('/saved_snippets')).body.saved_snippets;

describe('PATCH /saved_snippets/{saved_snippet_id}', () => {
  it("changes the title and the content (trimmed), reads back, and tells the owner's clients", async () => {
    const q = await registerQueue(t, 'hamlet', ['saved_snippets']);
    expect((await edit('hamlet', 1, { title: '  Welcome  ' })).body).toEqual({ result: 'success', msg: '' });
    expect((await edit('hamlet', 1, { content: 'Hi *all*', title: 'Hi' })).body).toEqual({
      result: 'success',
      msg: '',
    });
    const after = { id: 1, title: 'Hi', content: 'Hi *all*', date_created: 1794398400 };
    expect(await snippets('hamlet')).toEqual([after]);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      {
        type: 'saved_snippets',
        op: 'update',
        saved_snippet: { ...after, title: 'Welcome', content: 'Hello **everyone**!' },
        id: 0,
      },
      { type: 'saved_snippets', op: 'update', saved_snippet: after, id: 1 },
    ]);
  });

  it('changes nothing and sends nothing when given nothing', async () => {
    const q = await registerQueue(t, 'hamlet', ['saved_snippets']);
    expect((await edit('hamlet', 1, {})).body).toEqual({ result: 'success', msg: '' });
    expect(await eventsOf(t, 'hamlet', q)).toEqual([]);
  });

  it("refuses another user's snippet, an unknown one, and empty values", async () => {
    const notFound = await edit('iago', 1, { title: 'Mine now' });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual(error('BAD_REQUEST', 'Saved snippet does not exist.'));
    expect((await edit('hamlet', 99, { title: 'x' })).status).toBe(404);
    expect((await edit('hamlet', 1, { title: '   ' })).body).toEqual(error('BAD_REQUEST', 'Title cannot be empty.'));
    expect((await edit('hamlet', 1, { content: '  ' })).body).toEqual(error('BAD_REQUEST', 'Content cannot be empty.'));
    expect((await snippets('hamlet'))[0].title).toBe('Greeting');
  });
});
