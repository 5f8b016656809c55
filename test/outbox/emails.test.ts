// Emails in the outbox besides invitations: missed-message emails for away users (after their
// batching period on the mock clock, only for messages still unread, one per conversation) and
// the confirmation of an email address change.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { registerQueue } from '../helpers/events.js';
import { sendMessage } from '../helpers/messages.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
beforeEach(async () => {
  t = await startTestServer();
  control = new ControlClient(t.base);
  await control.clock.freeze();
});
afterEach(async () => {
  await t.close();
});

const id = (who: string) => t.user(who).user_id;
const emails = async (user: string) => (await control.outbox.list({ kind: 'email', user })).items.reverse() as any[];
const send = (who: string, params: Record<string, unknown>) => sendMessage(t, who, params);

describe('missed-message emails', () => {
  it('sends one email per conversation after the batching period, of the messages still unread', async () => {
    const first = await send('iago', { type: 'direct', to: [id('othello')], content: 'one' });
    const read = await send('iago', { type: 'direct', to: [id('othello')], content: 'two' });
    await control.clock.advance(60_000);
    const mention = await send('cordelia', {
      type: 'stream',
      to: 'Verona',
      topic: 'plans',
      content: '@**Othello, the Moor of Venice** see',
    });
    await t.as('othello').post('/messages/flags', { messages: [read], op: 'add', flag: 'read' });
    expect(await emails('othello@zulip.com')).toEqual([]);
    await control.clock.advance(60_000);
    const sent = await emails('othello@zulip.com');
    expect(sent.map((e) => [e.template, e.subject, e.message_ids])).toEqual([
      ['missed_message', 'DMs with Iago', [first]],
      ['missed_message', '#Verona > plans', [mention]],
    ]);
    expect(sent[0].text).toContain('Iago: one');
    expect(sent[0].text).not.toContain('two');
    expect(sent[1].links.narrow_url).toBe(`${t.base}/#narrow/channel/3-Verona/topic/plans/near/${mention}`);
  });

  it('sends none to users who are here, who read meanwhile, or who turned email notifications off', async () => {
    await registerQueue(t, 'othello', ['message']);
    await t.as('othello').post('/users/me/presence', { status: 'active' });
    await send('iago', { type: 'direct', to: [id('othello')], content: 'you are here' });
    const m = await send('iago', { type: 'direct', to: [id('cordelia')], content: 'read soon' });
    await t.as('cordelia').post('/messages/flags', { messages: [m], op: 'add', flag: 'read' });
    await t.as('aaron').patch('/settings', { enable_offline_email_notifications: false });
    await send('iago', { type: 'direct', to: [id('aaron')], content: 'no emails' });
    await control.clock.advance(10 * 60_000);
    expect((await control.outbox.list({ kind: 'email' })).count).toBe(0);
  });
});

describe('email address change', () => {
  it('sends the confirmation to the new address', async () => {
    await t.as('hamlet').patch('/settings', { email: 'new-hamlet@example.com' });
    const [email] = await emails('new-hamlet@example.com');
    expect(email).toMatchObject({
      template: 'confirm_new_email',
      user_id: id('hamlet'),
      subject: `Verify your new email address for ${new URL(t.base).host}`,
    });
    expect(email.links.activate_url).toMatch(/\/accounts\/confirm_new_email\/[a-z2-7]{24}$/);
  });
});
