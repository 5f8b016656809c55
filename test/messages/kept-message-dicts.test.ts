// GET /messages keeps each message's dict per viewer (src/domain/messages/read-parts.ts): after
// every kind of write that changes what a message shows, the answer must be byte for byte what a
// server holding the same state, loaded fresh, answers. A dict kept past its change fails here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshTwin, type FreshTwin } from '../helpers/fresh-twin.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
let twin: FreshTwin;
let denmark: number;
beforeEach(async () => {
  t = await startTestServer({ answerCache: false });
  twin = await freshTwin(t);
  denmark = streamId(t, 'Denmark');
});
afterEach(async () => {
  await twin.close();
  await t.close();
});

const reads = (): Array<[string, Record<string, unknown>, number?]> => [
  ['hamlet', { anchor: 'newest', num_before: 30, num_after: 0, narrow: [{ operator: 'channel', operand: denmark }] }],
  ['hamlet', { anchor: 'newest', num_before: 30, num_after: 0, apply_markdown: false, client_gravatar: false }],
  ['othello', { anchor: 'newest', num_before: 30, num_after: 0 }],
  // Before FL 328 reactions name their user; before FL 365 no last_moved_timestamp: shaped per level.
  ['othello', { anchor: 'newest', num_before: 30, num_after: 0 }, 300],
  ['hamlet', { anchor: 'newest', num_before: 30, num_after: 0 }, 340],
  ['iago', { anchor: 'newest', num_before: 30, num_after: 0, allow_empty_topic_name: true }],
  ['hamlet', { anchor: 'newest', num_before: 30, num_after: 0, narrow: [{ operator: 'search', operand: 'kept' }] }],
];

async function expectFresh(step: string): Promise<void> {
  for (const [who, params, level] of reads()) {
    const { kept, fresh } = await twin.both(who, '/messages', params, level);
    expect(kept, `${step}: GET /messages as ${who} ${JSON.stringify(params)} at ${level ?? 'the newest level'}`).toBe(
      fresh,
    );
    expect(kept.slice(0, 200), `${step}: status`).toMatch(/^200 /);
  }
}

describe('GET /messages built anew after each kind of write', () => {
  it('answers what a fresh server answers, write after write', async () => {
    const hamlet = t.as('hamlet');
    const iago = t.as('iago');
    const send = async (content: string, topic = 'kept dicts') =>
      (await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic, content })).body.id as number;
    const first = await send('a kept message');
    const second = await send('another kept message, @**othello**');
    const dm = (await hamlet.post('/messages', { type: 'direct', to: [t.user('othello').user_id], content: 'kept dm' }))
      .body.id as number;
    await expectFresh('after sends');
    // The same reads again: every dict now comes from what was kept.
    await expectFresh('read again');

    const steps: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      ['edit the content', () => hamlet.patch(`/messages/${first}`, { content: 'kept, then **edited**' })],
      [
        'move the topic',
        () => hamlet.patch(`/messages/${first}`, { topic: 'moved kept dicts', propagate_mode: 'change_one' }),
      ],
      ['add a reaction', () => t.as('othello').post(`/messages/${second}/reactions`, { emoji_name: 'smile' })],
      ['remove the reaction', () => t.as('othello').delete(`/messages/${second}/reactions`, { emoji_name: 'smile' })],
      ['star', () => hamlet.post('/messages/flags', { messages: [first, dm], op: 'add', flag: 'starred' })],
      ['mark read', () => t.as('othello').post('/messages/flags', { messages: [second, dm], op: 'add', flag: 'read' })],
      ['rename the sender', () => hamlet.patch('/settings', { full_name: 'Hamlet Renamed' })],
      ['rename the channel', () => iago.patch(`/streams/${denmark}`, { new_name: 'Danmark' })],
      [
        'add a linkifier',
        () => iago.post('/realm/filters', { pattern: 'kept', url_template: 'https://example.com/kept' }),
      ],
      [
        'edit history shown only for moves',
        () => iago.patch('/realm', { message_edit_history_visibility_policy: 'moves' }),
      ],
      ['move to another channel', () => iago.patch(`/messages/${second}`, { stream_id: streamId(t, 'Verona') })],
      ['delete a message', () => iago.delete(`/messages/${first}`)],
      [
        'empty topic',
        () => hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: '', content: 'kept, no topic' }),
      ],
    ];
    for (const [step, write] of steps) {
      const r = await write();
      expect(r.status, `${step}: ${JSON.stringify(r.body)}`).toBe(200);
      await expectFresh(step);
    }
  });
});
