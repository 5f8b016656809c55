// The real JavaScript client: a channel message sent by zulip-js (a multipart POST) is found by
// GET /messages/matches_narrow with a search narrow, its hits highlighted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { zulipAs } from '../helpers/zulip-js.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const client = (who: string) => zulipAs(t, who);

describe('zulip-js', () => {
  it('sends a channel message that a search narrow finds, highlighted', async () => {
    const hamlet = await client('hamlet');
    const sent = await hamlet.messages.send({
      type: 'stream',
      to: 'Denmark',
      topic: 'harbour news',
      content: 'The **ships** arrived in the harbour.',
    });
    expect(sent).toMatchObject({ result: 'success', msg: '' });
    expect(t.server.world.store.messages.get(sent.id)).toMatchObject({
      content: 'The **ships** arrived in the harbour.',
      topic: 'harbour news',
    });

    const narrow = [
      { operator: 'channel', operand: 'Denmark' },
      { operator: 'search', operand: 'harbour ship' },
    ];
    const found = await hamlet.callEndpoint('/messages/matches_narrow', 'GET', {
      msg_ids: JSON.stringify([sent.id, 1]),
      narrow: JSON.stringify(narrow),
    });
    expect(found).toEqual({
      result: 'success',
      msg: '',
      messages: {
        [sent.id]: {
          match_content:
            '<p>The <strong><span class="highlight">ships</span></strong> arrived in the <span class="highlight">harbour</span>.</p>',
          match_subject: '<span class="highlight">harbour</span> news',
        },
      },
    });
    // Another recipient finds it the same way; a search that does not match finds nothing.
    const othello = await client('othello');
    const theirs = await othello.callEndpoint('/messages/matches_narrow', 'GET', {
      msg_ids: JSON.stringify([sent.id]),
      narrow: JSON.stringify(narrow),
    });
    expect(Object.keys(theirs.messages)).toEqual([String(sent.id)]);
    const none = await othello.callEndpoint('/messages/matches_narrow', 'GET', {
      msg_ids: JSON.stringify([sent.id]),
      narrow: JSON.stringify([{ operator: 'search', operand: 'castle' }]),
    });
    expect(none.messages).toEqual({});
  });
});
