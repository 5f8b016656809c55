// GET, POST /drafts, PATCH and DELETE /drafts/{draft_id}: the user's synchronized drafts, the
// real server's checks and errors, drafts events, and the enable_drafts_synchronization switch.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';
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

const list = (who: string) => t.as(who).get('/drafts');
const create = (who: string, drafts: unknown[]) => t.as(who).post('/drafts', { drafts });
const channelDraft = (extra: Record<string, unknown> = {}) => ({
  type: 'stream',
  to: [streamId(t, 'Denmark')],
  topic: 'plans',
  content: 'We should meet',
  timestamp: 1795000000,
  ...extra,
});

describe('drafts', () => {
  it("lists the fixture drafts of Hamlet, oldest first, and none of anyone else's", async () => {
    const r = await list('hamlet');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      count: 2,
      drafts: [
        {
          id: 1,
          type: 'stream',
          to: [streamId(t, 'Verona')],
          topic: 'greetings',
          content: 'Good morning, Verona!',
          timestamp: 1795089600,
        },
        {
          id: 2,
          type: 'private',
          to: [t.user('othello').user_id],
          topic: '',
          content: 'About that handkerchief...',
          timestamp: 1795176000,
        },
      ],
    });
    expect((await list('othello')).body).toEqual({ result: 'success', msg: '', count: 0, drafts: [] });
  });

  it('creates drafts, with an add event, and reads them back', async () => {
    const q = await registerQueue(t, 'othello', ['drafts']);
    const r = await create('othello', [
      channelDraft(),
      { type: '', to: [], topic: '', content: '  just an idea  ', timestamp: 1795000001.7 },
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', ids: [3, 4] });
    const stored = [
      {
        id: 3,
        type: 'stream',
        to: [streamId(t, 'Denmark')],
        topic: 'plans',
        content: 'We should meet',
        timestamp: 1795000000,
      },
      { id: 4, type: '', to: [], topic: '', content: '  just an idea', timestamp: 1795000001 },
    ];
    expect((await list('othello')).body.drafts).toEqual(stored);
    expect(await eventsOf(t, 'othello', q)).toEqual([{ type: 'drafts', op: 'add', drafts: stored, id: 0 }]);
  });

  it("refuses invalid drafts in the real server's words, and saves none of the batch", async () => {
    const cases: Array<[unknown, string]> = [
      [channelDraft({ to: [] }), 'Must specify exactly 1 channel ID for channel messages'],
      [channelDraft({ to: [99999] }), 'Invalid channel ID'],
      [{ type: 'private', to: [99], topic: '', content: 'hi' }, 'Invalid user ID 99'],
      [channelDraft({ content: '   ' }), 'Message must not be empty'],
      [channelDraft({ timestamp: -5 }), 'Timestamp must not be negative.'],
    ];
    for (const [draft, msg] of cases)
      expect((await create('othello', [channelDraft(), draft])).body).toEqual(error('BAD_REQUEST', msg));
    // A guest cannot address a channel he cannot read.
    expect((await create('polonius', [channelDraft({ to: [streamId(t, 'Denmark')] })])).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
    expect((await list('othello')).body.count).toBe(0);
  });

  it('edits a draft with an update event; only its owner may', async () => {
    const q = await registerQueue(t, 'hamlet', ['drafts']);
    const r = await t.as('hamlet').patch('/drafts/1', { draft: channelDraft({ content: 'Good evening, Denmark!' }) });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const edited = {
      id: 1,
      type: 'stream',
      to: [streamId(t, 'Denmark')],
      topic: 'plans',
      content: 'Good evening, Denmark!',
      timestamp: 1795000000,
    };
    expect((await list('hamlet')).body.drafts[0]).toEqual(edited);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([{ type: 'drafts', op: 'update', draft: edited, id: 0 }]);
    const refused = await t.as('othello').patch('/drafts/1', { draft: channelDraft() });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(error('BAD_REQUEST', 'Draft does not exist'));
  });

  it('deletes a draft with a remove event; only its owner may', async () => {
    const refused = await t.as('othello').delete('/drafts/2');
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(error('BAD_REQUEST', 'Draft does not exist'));
    const q = await registerQueue(t, 'hamlet', ['drafts']);
    expect((await t.as('hamlet').delete('/drafts/2')).body).toEqual({ result: 'success', msg: '' });
    expect((await list('hamlet')).body.drafts.map((d: { id: number }) => d.id)).toEqual([1]);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([{ type: 'drafts', op: 'remove', draft_id: 2, id: 0 }]);
    expect((await t.as('hamlet').delete('/drafts/2')).status).toBe(404);
  });

  it('with enable_drafts_synchronization off every operation is refused (and the drafts are gone)', async () => {
    expect((await t.as('hamlet').patch('/settings', { enable_drafts_synchronization: false })).status).toBe(200);
    const off = error('BAD_REQUEST', 'User has disabled synchronizing drafts.');
    expect((await list('hamlet')).body).toEqual(off);
    expect((await create('hamlet', [channelDraft()])).body).toEqual(off);
    expect((await t.as('hamlet').patch('/drafts/1', { draft: channelDraft() })).body).toEqual(off);
    expect((await t.as('hamlet').delete('/drafts/1')).body).toEqual(off);
    expect((await t.as('hamlet').patch('/settings', { enable_drafts_synchronization: true })).status).toBe(200);
    expect((await list('hamlet')).body.count).toBe(0);
  });
});
