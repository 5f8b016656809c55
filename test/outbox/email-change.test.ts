// A user's own change of email address from end to end: PATCH /settings records the
// confirmation email, the control API follows its link (POST /__mock/email-changes/confirm) as the
// real server's confirmation page does, the address changes with the events of an
// administrator's change, and the old address gets the notice. Then each refusal of the link, in
// the real order, the one-day validity on the mock clock, and PATCH /settings's own checks of the
// address (compared as written; the organization's email rules).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import { emailChangeEvents } from '../helpers/email-change-events.js';

let t: TestServer;
let control: ControlClient;
let hamlet: number;
beforeEach(async () => {
  t = await startTestServer();
  control = new ControlClient(t.base);
  await control.clock.freeze();
  hamlet = t.user('hamlet').user_id;
});
afterEach(async () => {
  await t.close();
});

const ok = { result: 'success', msg: '' };
const emailsTo = async (address: string) =>
  (await control.outbox.list({ kind: 'email', user: address })).items.filter((e: any) => e.to === address) as any[];

/** Asks for the change as `who` and gives the link of the confirmation email it sent. */
async function ask(who: string, email: string): Promise<string> {
  const r = await t.as(who).patch('/settings', { email });
  expect(r.body).toEqual(ok);
  const [sent] = await emailsTo(email);
  return sent.links.activate_url;
}

/** The control API's refusal of a link, as [status, body]. */
async function refusal(link: string): Promise<[number, Record<string, unknown>]> {
  try {
    await control.emailChanges.confirm({ link });
  } catch (e) {
    if (e instanceof ControlError) return [e.status, e.body];
    throw e;
  }
  throw new Error('the link was accepted');
}

const malformed = [404, error('BAD_REQUEST', 'Whoops. The confirmation link is malformed.')];
const unknown = [404, error('BAD_REQUEST', "Whoops. We couldn't find your confirmation link in the system.")];
const expired = [404, error('BAD_REQUEST', 'Whoops. The confirmation link has expired or been deactivated.')];

describe('asking for an email change', () => {
  it('sends the confirmation to the new address, with the old and new addresses and the link', async () => {
    await t.as('hamlet').patch('/settings', { email: 'new-hamlet@example.com' });
    const [email] = await emailsTo('new-hamlet@example.com');
    const link = email.links.activate_url;
    expect(link).toMatch(new RegExp(`^${t.base}/accounts/confirm_new_email/[a-z2-7]{24}$`));
    expect(email).toEqual({
      id: expect.any(Number),
      time: expect.any(Number),
      kind: 'email',
      template: 'confirm_new_email',
      to: 'new-hamlet@example.com',
      user_id: hamlet,
      from_name: 'Zulip account security',
      from_address: expect.stringMatching(/^noreply-[a-z2-7]{24}@/),
      subject: `Verify your new email address for ${new URL(t.base).host}`,
      text:
        `Hello,\n\nSomeone asked to change the email address of the Zulip account on ${t.base} from hamlet@zulip.com to new-hamlet@example.com. To make the change, follow this link:\n    <${link}>\n\n` +
        'Did not ask for it? Write to support@zulip.com at once.\n',
      links: { activate_url: link },
    });
    // Nothing to the old address until the change is made; the address stays as it was.
    expect(await emailsTo('hamlet@zulip.com')).toEqual([]);
    expect(t.user('hamlet').delivery_email).toBe('hamlet@zulip.com');
  });

  it('is refused to members when the organization disables email changes, not to administrators', async () => {
    await t.as('iago').patch('/realm', { email_changes_disabled: true });
    const refused = await t.as('hamlet').patch('/settings', { email: 'new-hamlet@example.com' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      result: 'error',
      msg: 'Email address changes are disabled in this organization.',
      code: 'BAD_REQUEST',
    });
    expect(await emailsTo('new-hamlet@example.com')).toEqual([]);
    expect((await t.as('iago').patch('/settings', { email: 'new-iago@example.com' })).status).toBe(200);
    expect((await emailsTo('new-iago@example.com')).map((e) => e.template)).toEqual(['confirm_new_email']);
  });
});

describe('confirming an email change', () => {
  it('changes the address, tells each user what they may see, and sends the notice to the old address', async () => {
    const queues = {
      hamlet: await registerQueue(t, 'hamlet', ['realm_user']),
      iago: await registerQueue(t, 'iago', ['realm_user']),
      othello: await registerQueue(t, 'othello', ['realm_user']),
    };
    const link = await ask('hamlet', 'prince@elsinore.example');
    // Nothing changes, and nobody is told, before the link is followed.
    expect((await t.as('hamlet').get('/users/me')).body.delivery_email).toBe('hamlet@zulip.com');
    expect(await eventsOf(t, 'iago', queues.iago)).toEqual([]);

    const avatarBefore = (await t.as('iago').get(`/users/${hamlet}`, { client_gravatar: false })).body.user;
    expect(await control.emailChanges.confirm({ link })).toEqual({
      user_id: hamlet,
      old_email: 'hamlet@zulip.com',
      new_email: 'prince@elsinore.example',
      email: 'prince@elsinore.example',
    });

    // Read back: the account's own view, another's, a fresh register; the old address finds no one.
    const me = (await t.as('prince@elsinore.example').get('/users/me')).body;
    expect([me.email, me.delivery_email]).toEqual(['prince@elsinore.example', 'prince@elsinore.example']);
    // Hamlet shows his address to everyone (email_address_visibility 1): Othello sees the real one.
    expect((await t.as('othello').get(`/users/${hamlet}`)).body.user).toMatchObject({
      email: 'prince@elsinore.example',
      delivery_email: 'prince@elsinore.example',
    });
    const registered = (await t.as('prince@elsinore.example').post('/register', { fetch_event_types: ['realm_user'] }))
      .body;
    expect([registered.email, registered.delivery_email]).toEqual([
      'prince@elsinore.example',
      'prince@elsinore.example',
    ]);
    expect((await t.as('iago').get('/users/hamlet@zulip.com')).body).toEqual(error('BAD_REQUEST', 'No such user'));

    // The events of the change (as PATCH /users new_email makes it): the real address to those who
    // may see it, the Gravatar that follows the address, and the API address to everyone.
    const after = (await t.as('iago').get(`/users/${hamlet}`, { client_gravatar: false })).body.user;
    const { delivery, avatar, apiEmail } = emailChangeEvents(hamlet, 'prince@elsinore.example', {
      avatar_url: after.avatar_url,
      avatar_version: avatarBefore.avatar_version,
    });
    const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);
    expect(strip(await eventsOf(t, 'prince@elsinore.example', queues.hamlet))).toEqual([delivery, avatar, apiEmail]);
    expect(strip(await eventsOf(t, 'iago', queues.iago))).toEqual([delivery, avatar, apiEmail]);
    expect(strip(await eventsOf(t, 'othello', queues.othello))).toEqual([delivery, avatar, apiEmail]);

    // The notice to the old address, from the security sender at the support address.
    const realmName = t.server.world.store.realm.name;
    expect(await emailsTo('hamlet@zulip.com')).toEqual([
      {
        id: expect.any(Number),
        time: expect.any(Number),
        kind: 'email',
        template: 'notify_change_in_email',
        to: 'hamlet@zulip.com',
        user_id: hamlet,
        from_name: 'Zulip account security',
        from_address: 'support@zulip.com',
        subject: `Zulip email changed for ${realmName}`,
        text: `Hello,\n\nThe email address of your Zulip account on ${t.server.world.store.realm.url} is now prince@elsinore.example. Did not ask for this change? Write to support@zulip.com at once.\n`,
        links: {},
      },
    ]);
    // The confirmation came from the security sender too, at a no-reply address of its own.
    const [confirmation] = await emailsTo('prince@elsinore.example');
    expect(confirmation).toMatchObject({ from_name: 'Zulip account security' });
    expect(confirmation.from_address).toMatch(new RegExp(`^noreply-[a-z2-7]{24}@${new URL(t.base).hostname}$`));

    // A link is good once.
    expect(await refusal(link)).toEqual(expired);
  });

  it('changes only the real address of an account that hides it, with no new_email event', async () => {
    t.server.world.store.users.update(t.user('hamlet'), {
      settings: { ...t.user('hamlet').settings, email_address_visibility: 3 },
    });
    const q = await registerQueue(t, 'othello', ['realm_user']);
    const link = await ask('hamlet', 'prince@elsinore.example');
    expect((await control.emailChanges.confirm({ link })).email).toBe('hamlet@zulip.com');
    const me = (await t.as('hamlet').get('/users/me')).body;
    expect([me.email, me.delivery_email]).toEqual(['hamlet@zulip.com', 'prince@elsinore.example']);
    const persons = (await eventsOf(t, 'othello', q)).map((e) => Object.keys(e.person).sort().join(','));
    expect(persons).toEqual(['avatar_source,avatar_url,avatar_url_medium,avatar_version,user_id']);
  });

  it("keeps each sandbox's links its own", async () => {
    const sandbox = control.sandbox('elsewhere');
    const r = await t
      .as('hamlet', { 'X-Mock-Sandbox': 'elsewhere' })
      .patch('/settings', { email: 'prince@elsinore.example' });
    expect(r.body).toEqual(ok);
    const [sent] = (await sandbox.outbox.list({ kind: 'email' })).items as any[];
    expect(await refusal(sent.links.activate_url)).toEqual(unknown);
    expect((await sandbox.emailChanges.confirm({ link: sent.links.activate_url })).new_email).toBe(
      'prince@elsinore.example',
    );
    expect(t.user('hamlet').delivery_email).toBe('hamlet@zulip.com');
  });

  it('accepts the key alone, as the invitation call does', async () => {
    const link = await ask('hamlet', 'prince@elsinore.example');
    const key = link.split('/').pop()!;
    expect((await control.emailChanges.confirm({ link: key })).new_email).toBe('prince@elsinore.example');
  });
});

describe('refusals of the link, in the real order', () => {
  it('refuses a malformed key and one that does not exist', async () => {
    expect(await refusal(`${t.base}/accounts/confirm_new_email/abc`)).toEqual(malformed);
    expect(await refusal('a'.repeat(24))).toEqual(unknown);
    expect(await refusal('a'.repeat(40))).toEqual(unknown);
  });

  it('is valid one day on the mock clock: good at the last millisecond, expired after', async () => {
    const hamlets = await ask('hamlet', 'prince@elsinore.example');
    const othellos = await ask('othello', 'moor@venice.example');
    await control.clock.advance(24 * 60 * 60 * 1000);
    expect((await control.emailChanges.confirm({ link: othellos })).new_email).toBe('moor@venice.example');
    await control.clock.advance(1);
    expect(await refusal(hamlets)).toEqual(expired);
    expect(t.user('hamlet').delivery_email).toBe('hamlet@zulip.com');
  });

  it('revokes older links when the user asks again; the newest one works', async () => {
    const first = await ask('hamlet', 'prince@elsinore.example');
    const second = await ask('hamlet', 'dane@elsinore.example');
    expect(await refusal(first)).toEqual(expired);
    expect((await control.emailChanges.confirm({ link: second })).new_email).toBe('dane@elsinore.example');
  });

  it('refuses for a deactivated organization, using the link up', async () => {
    const link = await ask('hamlet', 'prince@elsinore.example');
    await t.as('desdemona').post('/realm/deactivate', {});
    expect(await refusal(link)).toEqual([400, error('REALM_DEACTIVATED', 'This organization has been deactivated')]);
    t.server.world.store.updateRealm({ deactivated: false });
    expect(await refusal(link)).toEqual(expired);
  });

  it('refuses for a deactivated account', async () => {
    const link = await ask('hamlet', 'prince@elsinore.example');
    expect((await t.as('iago').delete(`/users/${hamlet}`)).body).toEqual(ok);
    expect(await refusal(link)).toEqual([401, error('USER_DEACTIVATED', 'Account is deactivated')]);
    expect(t.user('hamlet').delivery_email).toBe('hamlet@zulip.com');
  });

  it('refuses when the organization disabled changes since, for members; administrators go through', async () => {
    const hamletsLink = await ask('hamlet', 'prince@elsinore.example');
    const iagosLink = await ask('iago', 'ensign@venice.example');
    expect((await t.as('iago').patch('/realm', { email_changes_disabled: true })).status).toBe(200);
    expect(await refusal(hamletsLink)).toEqual([
      400,
      error('BAD_REQUEST', 'Email address changes are disabled in this organization.'),
    ]);
    expect((await control.emailChanges.confirm({ link: iagosLink })).new_email).toBe('ensign@venice.example');
    // Refused after the key was found good: it is used up.
    await t.as('ensign@venice.example').patch('/realm', { email_changes_disabled: false });
    expect(await refusal(hamletsLink)).toEqual(expired);
  });

  it('refuses when the address was taken in the meantime, or the organization now restricts its domains', async () => {
    const taken = await ask('hamlet', 'prince@elsinore.example');
    const restricted = await ask('othello', 'moor@venice.example');
    // An administrator gives the address to someone else first.
    t.server.world.store.users.update(t.user('iago'), { can_change_user_emails: true });
    expect(
      (await t.as('iago').patch(`/users/${t.user('cordelia').user_id}`, { new_email: 'Prince@elsinore.example' })).body,
    ).toEqual(ok);
    expect(await refusal(taken)).toEqual([400, error('BAD_REQUEST', 'Already has an account.')]);
    expect((await t.as('desdemona').patch('/realm', { emails_restricted_to_domains: true })).status).toBe(200);
    expect(await refusal(restricted)).toEqual([400, error('BAD_REQUEST', 'Outside your domain.')]);
  });

  it("refuses when the account's address changed since the request", async () => {
    const link = await ask('hamlet', 'prince@elsinore.example');
    t.server.world.store.users.update(t.user('iago'), { can_change_user_emails: true });
    expect((await t.as('iago').patch(`/users/${hamlet}`, { new_email: 'dane@elsinore.example' })).body).toEqual(ok);
    expect(await refusal(link)).toEqual(expired);
  });

  it('is refused by the browser guard when another site sends it', async () => {
    const r = await fetch(`${t.base}/__mock/email-changes/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ link: 'a'.repeat(24) }),
    });
    expect(r.status).toBe(403);
    const form = await fetch(`${t.base}/__mock/email-changes/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'link=x',
    });
    expect(form.status).toBe(415);
  });
});

describe("PATCH /settings: the new address's own checks", () => {
  const refused = async (who: string, email: string) => {
    const r = await t.as(who).patch('/settings', { email });
    return [r.status, r.body];
  };

  it('compares the address as written: a change of case is a change, and finds the own account', async () => {
    expect(await refused('hamlet', 'Hamlet@zulip.com')).toEqual([400, error('BAD_REQUEST', 'Already has an account.')]);
    // The address exactly as it is: nothing to do, nothing sent.
    expect((await t.as('hamlet').patch('/settings', { email: ' hamlet@zulip.com ' })).body).toEqual(ok);
    expect(await emailsTo('hamlet@zulip.com')).toEqual([]);
  });

  it("refuses a system bot's address and a deactivated account's", async () => {
    expect(await refused('hamlet', 'notification-bot@zulip.com')).toEqual([
      400,
      error('BAD_REQUEST', 'Reserved for system bots.'),
    ]);
    expect((await t.as('iago').delete(`/users/${t.user('othello').user_id}`)).body).toEqual(ok);
    expect(await refused('hamlet', 'OTHELLO@zulip.com')).toEqual([
      400,
      error('BAD_REQUEST', 'Account has been deactivated.'),
    ]);
  });

  it("applies the organization's domains: outside them, and '+' addresses within them", async () => {
    expect((await t.as('desdemona').patch('/realm', { emails_restricted_to_domains: true })).status).toBe(200);
    expect(await refused('hamlet', 'prince@elsinore.example')).toEqual([
      400,
      error('BAD_REQUEST', 'Outside your domain.'),
    ]);
    expect(await refused('hamlet', 'prince+dk@zulip.com')).toEqual([
      400,
      error('BAD_REQUEST', 'Email addresses containing + are not allowed.'),
    ]);
    expect(await refused('hamlet', 'prince@sub.zulip.com')).toEqual([
      400,
      error('BAD_REQUEST', 'Outside your domain.'),
    ]);
    expect((await t.as('hamlet').patch('/settings', { email: 'prince@ZULIP.com' })).body).toEqual(ok);
    // Administrators are held to the domains too: only the change of address itself is theirs to make.
    expect(await refused('iago', 'ensign@venice.example')).toEqual([400, error('BAD_REQUEST', 'Outside your domain.')]);
  });

  it('refuses disposable providers unless the organization allows them; a + is fine outside restricted domains', async () => {
    expect(await refused('hamlet', 'prince@mailinator.com')).toEqual([
      400,
      error('BAD_REQUEST', 'Please use your real email address.'),
    ]);
    expect((await t.as('hamlet').patch('/settings', { email: 'prince+dk@elsinore.example' })).body).toEqual(ok);
    expect((await t.as('desdemona').patch('/realm', { disallow_disposable_email_addresses: false })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { email: 'prince@mailinator.com' })).body).toEqual(ok);
  });

  it('checks the rule on changes first, then the address', async () => {
    await t.as('iago').patch('/realm', { email_changes_disabled: true });
    expect(await refused('hamlet', 'not an address')).toEqual([
      400,
      error('BAD_REQUEST', 'Email address changes are disabled in this organization.'),
    ]);
    expect(await refused('iago', 'not an address')).toEqual([400, error('BAD_REQUEST', 'Invalid address.')]);
  });
});

describe('the link itself: GET /accounts/confirm_new_email/<key>', () => {
  it('makes the change, as the real page does, on a page that runs nothing', async () => {
    const link = await ask('hamlet', 'prince<b>@elsinore.example');
    const r = await fetch(link);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('cache-control')).toBe('no-store');
    const html = await r.text();
    expect(html).toContain('<h1>Email address changed</h1>');
    // The address is the user's own text: shown escaped.
    expect(html).toContain('now prince&lt;b&gt;@elsinore.example (it was hamlet@zulip.com)');
    expect(html).not.toContain('<b>');
    expect(t.user('prince<b>@elsinore.example').user_id).toBe(hamlet);
    expect((await emailsTo('hamlet@zulip.com')).map((e) => e.template)).toEqual(['notify_change_in_email']);

    const again = await fetch(link);
    expect(again.status).toBe(404);
    expect(await again.text()).toContain('<p>Whoops. The confirmation link has expired or been deactivated.</p>');
    const malformedPage = await fetch(`${t.base}/accounts/confirm_new_email/short`);
    expect([malformedPage.status, (await malformedPage.text()).includes('malformed')]).toEqual([404, true]);
  });

  it('answers a refusal of the change with its status and wording', async () => {
    const link = await ask('hamlet', 'prince@elsinore.example');
    await t.as('iago').patch('/realm', { email_changes_disabled: true });
    const r = await fetch(link);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('<p>Email address changes are disabled in this organization.</p>');
  });
});
