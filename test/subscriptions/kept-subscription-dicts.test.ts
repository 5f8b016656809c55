// GET /users/me/subscriptions keeps each subscription's dict (src/domain/subscriptions/list.ts):
// after every kind of write that changes what a subscription shows, the answer must be byte for
// byte what a server holding the same state, loaded fresh, answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { freshTwin, type FreshTwin } from '../helpers/fresh-twin.js';
import { groupId, streamId } from '../helpers/fixture-rows.js';

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

const READS: Array<[string, Record<string, unknown>, number?]> = [
  ['hamlet', {}],
  ['hamlet', { include_subscribers: true }],
  ['othello', { include_subscribers: 'partial' }],
  ['iago', {}],
  // Older levels: role (before FL 198 it was sent), email_address (until FL 226).
  ['hamlet', { include_subscribers: true }, 100],
  ['hamlet', {}, 250],
];

async function expectFresh(step: string): Promise<void> {
  for (const [who, params, level] of READS) {
    const { kept, fresh } = await twin.both(who, '/users/me/subscriptions', params, level);
    expect(kept, `${step}: as ${who} ${JSON.stringify(params)} at ${level ?? 'the newest level'}`).toBe(fresh);
    expect(kept.slice(0, 200), `${step}: status`).toMatch(/^200 /);
  }
}

describe('GET /users/me/subscriptions built anew after each kind of write', () => {
  it('answers what a fresh server answers, write after write', async () => {
    const hamlet = t.as('hamlet');
    const iago = t.as('iago');
    const denmark = streamId(t, 'Denmark');
    await expectFresh('at first');
    await expectFresh('read again');
    const steps: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      [
        'send a message',
        () => hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'kept', content: 'x' }),
      ],
      [
        'change a personal setting',
        () =>
          hamlet.post('/users/me/subscriptions/properties', {
            subscription_data: [{ stream_id: denmark, property: 'color', value: '#123456' }],
          }),
      ],
      [
        'pin',
        () =>
          hamlet.post(`/users/me/subscriptions/properties`, {
            subscription_data: [{ stream_id: denmark, property: 'pin_to_top', value: true }],
          }),
      ],
      ['rename the channel', () => iago.patch(`/streams/${denmark}`, { new_name: 'Danmark' })],
      ['change its description', () => iago.patch(`/streams/${denmark}`, { description: 'Kept **dicts**' })],
      [
        'change who may post',
        () => iago.patch(`/streams/${denmark}`, { can_send_message_group: { new: groupId(t, 'role:administrators') } }),
      ],
      [
        'subscribe someone else',
        () =>
          iago.post('/users/me/subscriptions', {
            subscriptions: [{ name: 'Danmark' }],
            principals: [t.user('polonius').user_id],
          }),
      ],
      ['create a channel', () => hamlet.post('/users/me/subscriptions', { subscriptions: [{ name: 'Kept new' }] })],
      [
        'first message in it',
        () => hamlet.post('/messages', { type: 'stream', to: 'Kept new', topic: 'a', content: 'x' }),
      ],
      ['deactivate a subscriber', () => iago.delete(`/users/${t.user('cordelia').user_id}`)],
      ['leave a channel', () => hamlet.delete('/users/me/subscriptions', { subscriptions: ['Kept new'] })],
      ['archive a channel', () => iago.delete(`/streams/${streamId(t, 'Verona')}`)],
    ];
    for (const [step, write] of steps) {
      const r = await write();
      expect(r.status, `${step}: ${JSON.stringify(r.body)}`).toBe(200);
      await expectFresh(step);
    }
  });
});
