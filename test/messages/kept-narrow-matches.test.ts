// GET /messages/matches_narrow keeps each message's answer entry (its highlighted content and
// escaped topic) as a part whose JSON is made once (src/domain/messages/matches-narrow.ts). After
// each write that changes what an entry shows, and between searches for other words, the answer
// must be byte for byte what a server loaded fresh with the same state answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshTwin, type FreshTwin } from '../helpers/fresh-twin.js';

let t: TestServer;
let twin: FreshTwin;
beforeEach(async () => {
  t = await startTestServer({ answerCache: false });
  twin = await freshTwin(t);
});
afterEach(async () => {
  await twin.close();
  await t.close();
});

describe('GET /messages/matches_narrow built anew between writes', () => {
  it('answers what a fresh server answers', async () => {
    const hamlet = t.as('hamlet');
    const send = async (content: string, topic: string) =>
      (await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic, content })).body.id as number;
    const ids = [
      await send('the lighthouse keeper\'s "lamp" & <light>', 'lighthouse & harbour'),
      await send('a lighthouse, again', 'lighthouse & harbour'),
      await send('nothing to see', 'other <topic>'),
    ];
    const searches = ['lighthouse', 'lamp', 'lighthouse lamp', 'harbour'];
    const expectFresh = async (step: string) => {
      for (const [who, operand] of [
        ['hamlet', 'lighthouse'],
        ['othello', 'lighthouse'],
        ...searches.map((s) => ['hamlet', s]),
        ['hamlet', 'lighthouse'],
      ]) {
        const params = { msg_ids: ids, narrow: [{ operator: 'search', operand }] };
        const { kept, fresh } = await twin.both(who, '/messages/matches_narrow', params);
        expect(kept, `${step}: ${who} searching ${operand}`).toBe(fresh);
        expect(kept.slice(0, 4), `${step}: status`).toBe('200 ');
      }
    };
    await expectFresh('after sends');
    await expectFresh('read again');
    const steps: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      ['the content edited', () => hamlet.patch(`/messages/${ids[0]}`, { content: 'no longer a match' })],
      ['the content edited back', () => hamlet.patch(`/messages/${ids[0]}`, { content: 'a lamp in the lighthouse' })],
      [
        'the topic moved',
        () => hamlet.patch(`/messages/${ids[1]}`, { topic: 'lighthouse "moved"', propagate_mode: 'change_one' }),
      ],
      ['a message deleted', () => t.as('iago').delete(`/messages/${ids[2]}`)],
    ];
    for (const [step, write] of steps) {
      const r = await write();
      expect(r.status, `${step}: ${JSON.stringify(r.body)}`).toBe(200);
      await expectFresh(step);
    }
  });
});
