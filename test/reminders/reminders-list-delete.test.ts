// Reminders once created: GET /reminders and DELETE /reminders/{id}. Creating and delivering
// them: reminders-create.test.ts.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { watchEvents } from '../helpers/events.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;

describe('reminders', () => {
  it("GET /reminders lists the caller's pending reminders", async () => {
    const r = await t.as('hamlet').get('/reminders');
    expect(r.body.reminders).toHaveLength(1);
    expect(r.body.reminders[0]).toMatchObject({
      reminder_id: 1,
      type: 'private',
      to: [id('hamlet')],
      reminder_target_message_id: 3,
      failed: false,
    });
    expect((await t.as('iago').get('/reminders')).body.reminders).toEqual([]);
  });

  it("DELETE /reminders/{id} deletes it and tells the owner's clients", async () => {
    const seen = watchEvents(t);
    expect((await t.as('hamlet').delete('/reminders/1')).status).toBe(200);
    expect((await t.as('hamlet').get('/reminders')).body.reminders).toEqual([]);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'reminders', op: 'remove', reminder_id: 1 }]);
    expectError(await t.as('hamlet').delete('/reminders/1'), 404, 'BAD_REQUEST', 'Reminder does not exist');
  });

  it("answers 404 for another user's reminder", async () => {
    expectError(await t.as('iago').delete('/reminders/1'), 404, 'BAD_REQUEST', 'Reminder does not exist');
    expect(store().reminders.get(1)).toBeDefined();
  });

  it('exist from feature level 399', async () => {
    const old = t.as('hamlet', { 'X-Mock-Feature-Level': '398' });
    // POST /reminders exists from 381, so the path answers 405 to GET before 399.
    expect((await old.get('/reminders')).status).toBe(405);
    expectError(await old.delete('/reminders/1'), 404, 'BAD_REQUEST', 'Not Found');
  });
});
