// GET /streams/{stream_id}/email_address: the address format, the sender choices, and who may
// ask (only users who can read and post in the channel).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const id = (who: string) => t.user(who).user_id;
const domain = () => t.server.world.store.realm.email_gateway_domain;
const address = async (who: string, stream: number, params: Record<string, unknown> = {}) => {
  const res = await t.as(who).get(`/streams/${stream}/email_address`, params);
  expect(res.status).toBe(200);
  return res.body.email as string;
};

describe('GET /streams/{stream_id}/email_address', () => {
  it('gives <name-slug>.<token>.show-sender@<gateway domain>, the same on every call', async () => {
    const email = await address('hamlet', streamId(t, 'Denmark'));
    expect(email).toMatch(new RegExp(`^denmark\\.[0-9a-f]{32}\\.show-sender@${domain().replace(/\./g, '\\.')}$`));
    expect(await address('hamlet', streamId(t, 'Denmark'))).toBe(email);
    expect(await address('hamlet', streamId(t, 'core team'))).toMatch(/^core-team\.[0-9a-f]{32}\.show-sender@/);
  });

  it('slugs names to lower-case ASCII and falls back to "channel" when letters would be lost', async () => {
    const cafe = await t.as('hamlet').post('/channels/create', { name: 'Café au lait', subscribers: [id('hamlet')] });
    expect(await address('hamlet', cafe.body.id)).toMatch(/^cafe-au-lait\.[0-9a-f]{32}\.show-sender@/);
    const kanji = await t.as('hamlet').post('/channels/create', { name: '日本', subscribers: [id('hamlet')] });
    expect(await address('hamlet', kanji.body.id)).toMatch(/^channel\.[0-9a-f]{32}\.show-sender@/);
  });

  it('defaults the sender to the email gateway bot; each caller and sender has its own token', async () => {
    const denmark = streamId(t, 'Denmark');
    const byDefault = await address('hamlet', denmark);
    const gateway = t.server.world.store.realm.email_gateway_bot_id;
    expect(await address('hamlet', denmark, { sender_id: gateway })).toBe(byDefault);
    const asSelf = await address('hamlet', denmark, { sender_id: id('hamlet') });
    const asBot = await address('hamlet', denmark, { sender_id: id('hamlet-bot') });
    expect(new Set([byDefault, asSelf, asBot]).size).toBe(3);
    expect(await address('othello', denmark)).not.toBe(byDefault);
  });

  it('refuses senders that are not the caller, the gateway bot or a bot the caller owns', async () => {
    const denmark = streamId(t, 'Denmark');
    expectError(
      await t.as('hamlet').get(`/streams/${denmark}/email_address`, { sender_id: id('iago-bot') }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t.as('hamlet').get(`/streams/${denmark}/email_address`, { sender_id: id('othello') }),
      400,
      'BAD_REQUEST',
      'No such bot',
    );
    expectError(
      await t.as('hamlet').get(`/streams/${denmark}/email_address`, { sender_id: 9999 }),
      400,
      'BAD_REQUEST',
      'No such bot',
    );
    expect(await address('iago', denmark, { sender_id: id('iago-bot') })).toMatch(/^denmark\./);
  });

  it('answers Invalid channel ID for unknown, archived or inaccessible channels', async () => {
    expectError(await t.as('hamlet').get('/streams/999/email_address'), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(
      await t.as('othello').get(`/streams/${streamId(t, 'core team')}/email_address`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('hamlet').get(`/streams/${streamId(t, 'Old Rome')}/email_address`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('polonius').get(`/streams/${streamId(t, 'Denmark')}/email_address`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expect(await address('polonius', streamId(t, 'Verona'))).toMatch(/^verona\./);
  });

  it('answers only users who may post in the channel', async () => {
    const venice = streamId(t, 'Venice'); // can_send_message_group: administrators
    expectError(
      await t.as('hamlet').get(`/streams/${venice}/email_address`),
      400,
      'BAD_REQUEST',
      'You do not have permission to post in this channel.',
    );
    expect(await address('iago', venice)).toMatch(/^venice\./);
  });
});
