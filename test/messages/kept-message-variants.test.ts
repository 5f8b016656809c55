// GET /messages keeps each message's dict per viewer and remembers the variant it handed out last
// (src/domain/messages/read-parts.ts); its parts keep their last shape and the checks they passed
// (src/contract/fragments.ts). Reads that alternate viewers, levels and options between writes
// that change what a dict shows must still answer, byte for byte, what a server loaded fresh with
// the same state answers: a kept variant, shape or check that outlived its change fails here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshTwin, type FreshTwin } from '../helpers/fresh-twin.js';
import { streamId } from '../helpers/fixture-rows.js';
import { multipart, TINY_PNG } from '../helpers/uploads.js';

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

const reads = (): Array<[string, Record<string, unknown>, number?]> => {
  const channel = {
    anchor: 'newest',
    num_before: 20,
    num_after: 0,
    narrow: [{ operator: 'channel', operand: denmark }],
  };
  return [
    // The same message seen by one viewer, then another, then the first again (the last variant).
    ['hamlet', channel],
    ['othello', channel],
    ['hamlet', channel],
    // Cordelia is not subscribed: the channel's history, flags read and historical.
    ['cordelia', channel],
    ['hamlet', { ...channel, client_gravatar: false }],
    ['hamlet', channel],
    // Below FL 510 the hide_link_previews flag is not shown; below FL 328 reactions name their user.
    ['hamlet', channel, 509],
    ['hamlet', channel],
    ['othello', channel, 300],
    ['othello', channel],
    ['iago', { ...channel, apply_markdown: false }],
  ];
};

async function expectFresh(step: string): Promise<void> {
  for (const [who, params, level] of reads()) {
    const { kept, fresh } = await twin.both(who, '/messages', params, level);
    expect(kept, `${step}: GET /messages as ${who} ${JSON.stringify(params)} at ${level ?? 'the newest level'}`).toBe(
      fresh,
    );
    expect(kept.slice(0, 200), `${step}: status`).toMatch(/^200 /);
  }
}

describe('GET /messages built anew, viewers and levels alternating between writes', () => {
  it('answers what a fresh server answers after each change a kept variant could miss', async () => {
    const hamlet = t.as('hamlet');
    const othello = t.as('othello');
    const send = async (who: string, content: string) =>
      (await t.as(who).post('/messages', { type: 'stream', to: 'Denmark', topic: 'variants', content })).body
        .id as number;
    const first = await send('hamlet', 'a message with a link https://example.com/kept');
    const second = await send('othello', 'a reply, @**hamlet**');
    await expectFresh('after sends');
    await expectFresh('read again');

    const png = { name: 'me.png', bytes: TINY_PNG, type: 'image/png' };
    const steps: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      ['a reaction to name its user', () => othello.post(`/messages/${first}/reactions`, { emoji_name: 'smile' })],
      ['the reacting user renamed', () => othello.patch('/settings', { full_name: 'Othello Renamed' })],
      ['the sender uploads an avatar', () => multipart(t, 'hamlet', 'POST', '/users/me/avatar', {}, [png])],
      ['the sender resets the avatar', () => hamlet.delete('/users/me/avatar')],
      ['the sender hides the address', () => hamlet.patch('/settings', { email_address_visibility: 4 })],
      ['the sender shows the address', () => hamlet.patch('/settings', { email_address_visibility: 1 })],
      [
        'link previews hidden',
        () => hamlet.post('/messages/flags', { messages: [first, second], op: 'add', flag: 'hide_link_previews' }),
      ],
      ['marked unread', () => hamlet.post('/messages/flags', { messages: [second], op: 'remove', flag: 'read' })],
      [
        'starred by another viewer',
        () => othello.post('/messages/flags', { messages: [first], op: 'add', flag: 'starred' }),
      ],
      [
        'the history reader subscribes',
        () => t.as('cordelia').post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] }),
      ],
      [
        'a message after subscribing',
        async () => ({ status: 200, body: await send('othello', 'now cordelia receives this') }),
      ],
      [
        'the content edited',
        () => hamlet.patch(`/messages/${first}`, { content: 'edited, https://example.com/edited' }),
      ],
      ['a message deleted', () => t.as('iago').delete(`/messages/${second}`)],
    ];
    for (const [step, write] of steps) {
      const r = await write();
      expect(r.status, `${step}: ${JSON.stringify(r.body)}`).toBe(200);
      await expectFresh(step);
    }
  });
});
