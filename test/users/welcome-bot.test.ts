// The welcome bot's direct messages to a new person's account (POST /users, an accepted
// invitation): the greeting, starred for the new account, then from FL 416 the organization's (or
// an administrator's invitation's) custom text; bots and below-416 custom texts get none.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { registerQueue, watchEvents } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';
import { storeSettings } from '../../src/domain/realm/setting-values.js';

let t: TestServer;
let control: ControlClient;
serverPerTest((server) => {
  t = server;
  control = new ControlClient(server.base);
});

const store = () => t.server.world.store;
const WELCOME_BOT = 'welcome-bot@zulip.com';
const GREETING = [
  'Hello, and welcome to Zulip!👋',
  'To learn more, check out our [getting started guide](/help/getting-started-with-zulip)!',
  'You can always come back to the [Welcome to Zulip video](https://static.zulipchat.com/static/navigation-tour-video/zulip-10.mp4) for a quick app overview.',
].join('\n\n');
const INTRO = 'The administrators for this organization would also like to share the following information:';

const params = { email: 'newbie@zulip.com', password: 'secret-password', full_name: 'New User' };
const create = (level = 511) => t.as('iago', { 'X-Mock-Feature-Level': String(level) }).post('/users', params);

/** The new account's direct messages from the welcome bot, raw content and own flags, oldest first. */
async function welcomeMessages(who: string) {
  const r = await t.as(who).get('/messages', {
    anchor: 'newest',
    num_before: 20,
    num_after: 0,
    narrow: [{ operator: 'dm', operand: [store().realm.welcome_bot_id] }],
    apply_markdown: false,
  });
  expect(r.body.msg ?? '').toBe('');
  return r.body.messages.map((m: any) => ({ id: m.id, content: m.content, flags: m.flags, sender: m.sender_email }));
}

describe('the welcome bot greets a new account', () => {
  it('POST /users: the greeting, starred and unread, sent as a message event to the new account', async () => {
    await registerQueue(t, 'hamlet', ['message']); // somebody listens, so message events are built
    const seen = watchEvents(t);
    const r = await create();
    expect(r.status).toBe(200);
    const userId = r.body.user_id;
    const got = await welcomeMessages('newbie');
    expect(got).toEqual([{ id: expect.any(Number), content: GREETING, flags: ['starred'], sender: WELCOME_BOT }]);
    const sent = seen.filter((p) => p.event.type === 'message');
    expect(sent).toHaveLength(1);
    expect(sent[0].users).toEqual([store().realm.welcome_bot_id, userId].sort((a, b) => a! - b!));
    expect(sent[0].event.message).toMatchObject({ id: got[0].id, type: 'private', sender_email: WELCOME_BOT });
    // The bot's own copy is read.
    expect(store().messages.get(got[0].id)!.flags[String(store().realm.welcome_bot_id)]).toEqual(['read']);
  });

  it("adds the organization's custom text as a second message from FL 416", async () => {
    storeSettings(store(), { welcome_message_custom_text: 'Read #**Verona** first.' });
    await create();
    const got = await welcomeMessages('newbie');
    expect(got.map((m: any) => m.content)).toEqual([GREETING, `${INTRO}\n\nRead #**Verona** first.`]);
    expect(got[1].flags).toEqual([]);
  });

  it('sends no custom text below FL 416, or when the setting is empty', async () => {
    storeSettings(store(), { welcome_message_custom_text: 'Read #**Verona** first.' });
    await create(415);
    expect((await welcomeMessages('newbie')).map((m: any) => m.content)).toEqual([GREETING]);
  });

  it('gives administrators the guide to moving the organization, and education organizations the class guides', async () => {
    storeSettings(store(), { org_type: 35 });
    const r = await t
      .as('iago')
      .post('/invites', { invitee_emails: 'teacher@example.com', stream_ids: [], invite_as: 200 });
    expect(r.status).toBe(200);
    const email = (await control.outbox.list({ kind: 'email', user: 'teacher@example.com' })).items[0] as any;
    await control.invites.accept({ link: email.links.activate_url, full_name: 'Teacher', password: 'a-good-password' });
    const [greeting] = await welcomeMessages('teacher@example.com');
    expect(greeting.content).toContain(
      'To learn more, check out our [using Zulip for a class guide](/help/using-zulip-for-a-class)! We also have a guide for [setting up Zulip for a class](/help/setting-up-zulip-for-a-class).',
    );
    storeSettings(store(), { org_type: 10 });
    await create();
    expect((await welcomeMessages('newbie'))[0].content).not.toContain('moving your organization');
  });

  it('sends nothing to a new bot', async () => {
    const before = store().messages.all().length;
    const r = await t.as('hamlet').post('/bots', { full_name: 'Helper', short_name: 'helper' });
    expect(r.status).toBe(200);
    expect(store().messages.all().length).toBe(before);
  });
});

describe("an invitation's custom text (FL 416)", () => {
  async function invite(who: string, address: string, extra: Record<string, unknown>) {
    const r = await t.as(who).post('/invites', { invitee_emails: address, stream_ids: [], ...extra });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const email = (await control.outbox.list({ kind: 'email', user: address })).items[0] as any;
    await control.invites.accept({ link: email.links.activate_url, full_name: 'Invitee', password: 'a-good-password' });
    return (await welcomeMessages(address)).map((m: any) => m.content);
  }

  it("an administrator's text replaces the organization's; an empty one sends none", async () => {
    storeSettings(store(), { welcome_message_custom_text: 'Organization text' });
    expect(await invite('iago', 'a@example.com', { welcome_message_custom_text: 'Just for you' })).toEqual([
      GREETING,
      `${INTRO}\n\nJust for you`,
    ]);
    expect(await invite('iago', 'b@example.com', { welcome_message_custom_text: '' })).toEqual([GREETING]);
    expect(await invite('iago', 'c@example.com', {})).toEqual([GREETING, `${INTRO}\n\nOrganization text`]);
  });

  it("a member's text is dropped: the organization's applies", async () => {
    storeSettings(store(), { welcome_message_custom_text: 'Organization text' });
    expect(await invite('hamlet', 'd@example.com', { welcome_message_custom_text: 'From Hamlet' })).toEqual([
      GREETING,
      `${INTRO}\n\nOrganization text`,
    ]);
  });

  it("a reusable link keeps an administrator's text too", async () => {
    const r = await t.as('iago').post('/invites/multiuse', { welcome_message_custom_text: 'Via the link' });
    await control.invites.accept({
      link: r.body.invite_link,
      email: 'linked@example.com',
      full_name: 'Linked',
      password: 'a-good-password',
    });
    expect((await welcomeMessages('linked@example.com')).map((m: any) => m.content)).toEqual([
      GREETING,
      `${INTRO}\n\nVia the link`,
    ]);
  });
});
