// GET /messages/{message_id}/read_receipts: who read a message, with the real server's privacy
// rules (organization switch, personal setting, muting both ways, sender and deactivated left out).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
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

const receipts = (who: string, id: number) => t.as(who).get(`/messages/${id}/read_receipts`);
const id = (who: string) => t.user(who).user_id;
const markRead = (who: string, messageId: number) =>
  t.as(who).post('/messages/flags', { messages: [messageId], op: 'add', flag: 'read' });

/** Othello writes to Verona; Hamlet, Cordelia, Shiva and Polonius read it (Prospero does not). */
async function readMessageInVerona(): Promise<number> {
  const messageId = await sendToChannel(t, 'othello', 'Verona', 'receipts', 'did you read this?');
  for (const who of ['hamlet', 'cordelia', 'shiva', 'polonius'])
    expect((await markRead(who, messageId)).status).toBe(200);
  return messageId;
}

describe('GET /messages/{message_id}/read_receipts', () => {
  it("lists the readers, without the sender, and honours each reader's send_read_receipts", async () => {
    const messageId = await readMessageInVerona();
    // Iago sees everyone who read it: not Othello (the sender), not Prospero (unread).
    const r = await receipts('iago', messageId);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      user_ids: [id('shiva'), id('hamlet'), id('cordelia'), id('polonius')],
    });
    expect((await t.as('shiva').patch('/settings', { send_read_receipts: false })).status).toBe(200);
    expect((await receipts('iago', messageId)).body.user_ids).toEqual([id('hamlet'), id('cordelia'), id('polonius')]);
  });

  it('leaves out, for each caller, the users they muted and the users who muted them', async () => {
    const messageId = await readMessageInVerona();
    // Hamlet muted Polonius: neither sees the other's receipt (each sees his own, as on the real server).
    expect((await receipts('hamlet', messageId)).body.user_ids).toEqual([id('shiva'), id('hamlet'), id('cordelia')]);
    expect((await receipts('polonius', messageId)).body.user_ids).toEqual([
      id('shiva'),
      id('cordelia'),
      id('polonius'),
    ]);
    // Cordelia muted Othello (the sender): he does not see that she read it.
    expect((await receipts('othello', messageId)).body.user_ids).toEqual([id('shiva'), id('hamlet'), id('polonius')]);
  });

  it('refuses messages the caller cannot read, and every message when the organization turned receipts off', async () => {
    const direct = await sendMessage(t, 'hamlet', {
      type: 'private',
      to: JSON.stringify([id('othello')]),
      content: 'between us',
    });
    expect((await receipts('othello', direct)).body).toEqual({ result: 'success', msg: '', user_ids: [] });
    expect((await receipts('cordelia', direct)).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    const store = t.server.world.store;
    store.updateRealm({ shown_settings: { ...store.realm.shown_settings, enable_read_receipts: false } });
    const r = await receipts('othello', direct);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Read receipts are disabled in this organization.'));
  });
});
