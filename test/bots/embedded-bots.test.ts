// Embedded bots (bot_type 4) through HTTP: the bundled bots the mock runs answer a mention that
// opens the message and a direct message, as the real development server's worker does; a
// mention further in gets no answer; bots the mock does not run are journaled as such.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
beforeAll(async () => {
  t = await startTestServer();
  control = new ControlClient(t.base);
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

const embedded = async (service: string, full = 'Helper', config?: Record<string, string>) => {
  const r = await t.as('hamlet').post('/bots', {
    full_name: full,
    short_name: full.toLowerCase(),
    bot_type: 4,
    service_name: service,
    ...(config ? { config_data: JSON.stringify(config) } : {}),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.user_id as number;
};
const settled = async () => expect(await control.outgoing.settle(5000)).toEqual({ settled: true, pending: 0 });
const newest = (n: number) => t.server.world.store.messages.all().slice(-n);

describe('embedded bots', () => {
  it('helloworld answers a mention that opens the message with "beep boop", where the message was', async () => {
    const bot = await embedded('helloworld');
    await sendToChannel(t, 'hamlet', 'Denmark', 'hello', '@**Helper** hi there');
    await settled();
    const [reply] = newest(1);
    expect(reply).toMatchObject({
      sender_id: bot,
      stream_id: 1,
      topic: 'hello',
      content: 'beep boop',
      client: 'Internal',
    });
  });

  it('encrypt answers a direct message with its ROT13, the mention removed when there is one', async () => {
    const bot = await embedded('encrypt');
    await sendMessage(t, 'hamlet', { type: 'direct', to: [bot], content: 'Hello, World!' });
    await settled();
    expect(newest(1)[0]).toMatchObject({
      sender_id: bot,
      type: 'private',
      content: 'Encrypted/Decrypted text: Uryyb, Jbeyq!',
    });
    await sendToChannel(t, 'hamlet', 'Denmark', 'rot', `@**Helper|${bot}**   secret`);
    await settled();
    expect(newest(1)[0]).toMatchObject({ sender_id: bot, content: 'Encrypted/Decrypted text: frperg' });
  });

  it('does not answer a mention further in the message (the real worker fails on it)', async () => {
    await embedded('helloworld');
    await control.journal.clear();
    const before = t.server.world.store.messages.all().length;
    await sendToChannel(t, 'hamlet', 'Denmark', 'hello', 'hey @**Helper**');
    await settled();
    expect(t.server.world.store.messages.all()).toHaveLength(before + 1);
    const { entries } = await control.journal.list({ operation: 'embedded-bot' });
    expect(entries.map((e) => e.code)).toEqual(['NOT_ADDRESSED']);
  });

  it('followup copies the message to its configured channel, in a topic named after the sender', async () => {
    const bot = await embedded('followup', 'Followup', { stream: 'Verona' });
    await sendToChannel(t, 'hamlet', 'Denmark', 'meeting', '@**Followup** send the minutes');
    await settled();
    expect(newest(1)[0]).toMatchObject({
      sender_id: bot,
      stream_id: 3,
      topic: 'hamlet@zulip.com',
      content: 'from hamlet@zulip.com: send the minutes',
    });
    await sendToChannel(t, 'hamlet', 'Denmark', 'meeting', '@**Followup**');
    await settled();
    expect(newest(1)[0]).toMatchObject({
      sender_id: bot,
      stream_id: 1,
      topic: 'meeting',
      content: 'Please specify the message you want to send to followup stream after @mention-bot',
    });
  });

  it('says in the journal when it does not run a bundled bot', async () => {
    await embedded('converter', 'Converter');
    await control.journal.clear();
    await sendToChannel(t, 'hamlet', 'Denmark', 'units', '@**Converter** 12 meter foot');
    await settled();
    const { entries } = await control.journal.list({ operation: 'embedded-bot' });
    expect(entries.map((e) => [e.path, e.code])).toEqual([['embedded:converter', 'NOT_SUPPORTED']]);
  });
});
