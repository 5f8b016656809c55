// Emails in the outbox besides invitations and email changes (email-change.test.ts):
// missed-message emails for away users (after their batching period on the mock clock, only for
// messages still unread, one per conversation).
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
    // The facts of the real template, in the mock's words: why (none for a direct message), where
    // to answer, that replies by email go nowhere, and where the email settings are.
    expect(sent[0].text).not.toContain('You were sent this email because');
    expect(sent[1].text).toBe(
      [
        "Cordelia, Lear's daughter: @Othello, the Moor of Venice see",
        '--\nYou were sent this email because someone mentioned you by name.',
        `To answer, open Zulip Dev:\n${sent[1].links.narrow_url}\n\nReplies to this email go nowhere: this server takes no email replies (https://zulip.readthedocs.io/en/latest/production/email-gateway.html).`,
        `Change which emails you get:\n${t.base}/#settings/notifications\n`,
      ].join('\n\n'),
    );
    expect(sent[1].links.settings_url).toBe(`${t.base}/#settings/notifications`);
  });

  it('tells of the messages as they were when it was sent, however late it is read', async () => {
    // The text is written when first read (a batch can gather thousands of messages), from what
    // the messages said when the email went: an edit after that does not reach it.
    const message = await send('iago', { type: 'direct', to: [id('othello')], content: 'before the edit' });
    await control.clock.advance(120_000);
    await t.as('othello').get('/users/me'); // a request releases what is due
    const edit = await t.as('iago').patch(`/messages/${message}`, { content: 'after the edit' });
    expect(edit.status).toBe(200);
    const [email] = await emails('othello@zulip.com');
    expect(email.message_ids).toEqual([message]);
    expect(email.text).toContain('Iago: before the edit');
    expect(email.text).not.toContain('after the edit');
  });

  it('tells of the messages as they are when it is sent: unread again, edited, deleted while it waited', async () => {
    // The email keeps its messages' state up to date as they change (releasing it looks none up again).
    const unreadAgain = await send('iago', { type: 'direct', to: [id('othello')], content: 'read, then unread' });
    const edited = await send('iago', { type: 'direct', to: [id('othello')], content: 'first words' });
    const deleted = await send('iago', { type: 'direct', to: [id('othello')], content: 'soon gone' });
    const read = await send('iago', { type: 'direct', to: [id('othello')], content: 'read for good' });
    const othello = t.as('othello');
    await othello.post('/messages/flags', { messages: [unreadAgain, read], op: 'add', flag: 'read' });
    await othello.post('/messages/flags', { messages: [unreadAgain], op: 'remove', flag: 'read' });
    expect((await t.as('iago').patch(`/messages/${edited}`, { content: 'second words' })).status).toBe(200);
    expect((await t.as('iago').delete(`/messages/${deleted}`)).status).toBe(200);
    await control.clock.advance(120_000);
    const [email] = await emails('othello@zulip.com');
    expect(email.message_ids).toEqual([unreadAgain, edited]);
    expect(email.text.startsWith('Iago: read, then unread\n\nIago: second words\n\n--')).toBe(true);
    // Read after it went: the email already sent is not taken back, and none other follows.
    await othello.post('/messages/flags', { messages: [edited], op: 'add', flag: 'read' });
    await control.clock.advance(120_000);
    expect((await emails('othello@zulip.com')).map((e) => e.message_ids)).toEqual([[unreadAgain, edited]]);
  });

  it('says why: a group mention, a channel that notifies by email; a resolved topic in brackets', async () => {
    const group = t.server.world.store.userGroups.find((g) => g.name === 'hamletcharacters')!;
    t.server.world.store.userGroups.update(group, { direct_members: [...group.direct_members, id('othello')] });
    await send('iago', { type: 'stream', to: 'Verona', topic: 'plans', content: '@*hamletcharacters* look' });
    await t.as('othello').patch('/settings', { enable_stream_email_notifications: true });
    await send('iago', { type: 'stream', to: 'Verona', topic: '✔ done', content: 'closed' });
    await control.clock.advance(120_000);
    const sent = await emails('othello@zulip.com');
    expect(sent.map((e) => e.subject)).toEqual(['#Verona > plans', '[resolved] #Verona > done']);
    expect(sent[0].text).toContain('You were sent this email because someone mentioned @hamletcharacters.');
    expect(sent[1].text).toContain('You were sent this email because #Verona notifies you by email.');
  });

  it('leaves the content out when the user or the organization keeps it out of emails', async () => {
    await t.as('othello').patch('/settings', { message_content_in_email_notifications: false });
    await send('iago', { type: 'direct', to: [id('othello')], content: 'secret plans' });
    await control.clock.advance(120_000);
    const [email] = await emails('othello@zulip.com');
    expect(email.subject).toBe('New messages');
    expect(email.text).not.toContain('secret plans');
    expect(email.text).toContain(`${t.base}/help/dm-mention-alert-notifications`);
    expect(email.text).toContain(`To read and answer them, open Zulip Dev:\n${email.links.narrow_url}`);
    expect(email.text).not.toContain('Replies to this email go nowhere');
    await t.as('othello').patch('/settings', { message_content_in_email_notifications: true });
    await t.as('iago').patch('/realm', { message_content_allowed_in_email_notifications: false });
    await send('iago', { type: 'direct', to: [id('othello')], content: 'more plans' });
    await control.clock.advance(120_000);
    const [, second] = await emails('othello@zulip.com');
    expect(second.subject).toBe('New messages');
    expect(second.text).not.toContain('more plans');
    expect(second.text).toContain(`${t.base}/help/hide-message-content-in-emails`);
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
