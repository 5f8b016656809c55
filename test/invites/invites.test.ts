// Invitations end to end: sending, the email in the outbox, listing, revoking, resending, reusable
// links, and accepting through the control API (the new account logs in).
import { describe, expect, it } from 'vitest';
import { serverPerTest, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';
import { systemGroupId } from '../../src/domain/group-settings/membership.js';

let t: TestServer;
let control: ControlClient;
serverPerTest((server) => {
  t = server;
  control = new ControlClient(server.base);
});

const store = () => t.server.world.store;
const DAY_MS = 86_400_000;

describe('POST /invites', () => {
  it('sends the invitation email to the outbox, lists the invitation, and the link creates the account', async () => {
    const r = await t.as('iago').post('/invites', {
      invitee_emails: 'New Person <newbie@example.com>',
      stream_ids: [1, 2],
      invite_expires_in_minutes: 60 * 24 * 10,
    });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const { items } = await control.outbox.list({ kind: 'email', user: 'newbie@example.com' });
    expect(items).toHaveLength(1);
    const email = items[0] as any;
    expect(email).toMatchObject({
      template: 'invitation',
      to: 'newbie@example.com',
      subject: 'Iago has invited you to join Zulip Dev',
    });
    expect(email.links.activate_url).toMatch(
      new RegExp(`^${t.base.replace(/[.]/g, '\\.')}/accounts/do_confirm/[a-z2-7]{24}$`),
    );
    // The facts of the real template, in the mock's words: who invites, their address, the link, whom to ask.
    expect(email.text).toContain(`<${email.links.activate_url}>`);
    expect(email.text).toContain('Iago (iago@zulip.com) invites you to Zulip Dev');
    expect(email.text).toContain('support@zulip.com');

    const list = await t.as('iago').get('/invites');
    expect(list.body.invites).toEqual([
      expect.objectContaining({
        email: 'newbie@example.com',
        invited_by_user_id: 2,
        invited_as: 400,
        is_multiuse: false,
        notify_referrer_on_join: true,
      }),
    ]);
    const invite = list.body.invites[0];
    expect(invite.expiry_date - invite.invited).toBe(10 * 86_400);

    const created = await control.invites.accept({
      link: email.links.activate_url,
      full_name: 'New Person',
      password: 'a-good-password',
    });
    expect(created.email).toBe('newbie@example.com');
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: 'newbie@example.com', password: 'a-good-password' });
    expect(login.body).toMatchObject({ result: 'success', user_id: created.user_id, api_key: created.api_key });
    const me = await t.as('newbie@example.com').get('/users/me');
    expect(me.body).toMatchObject({ full_name: 'New Person', role: 400 });
    const subscribed = store()
      .subscriptions.filter((s) => s.user_id === created.user_id)
      .map((s) => s.stream_id)
      .sort();
    expect(subscribed).toEqual([1, 2]);
    // Used up: no longer listed, and the link does not work twice.
    expect((await t.as('iago').get('/invites')).body.invites).toEqual([]);
    await expect(
      control.invites.accept({ link: email.links.activate_url, full_name: 'Again', password: 'a-good-password' }),
    ).rejects.toMatchObject({ status: 400, body: { msg: 'The confirmation link has expired or been deactivated.' } });
  });

  it('tells the inviter through the notification bot and announces the signup; default channels and groups when asked', async () => {
    const group = store().userGroups.find((g) => g.name === 'leadership')!;
    const sent = await t.as('iago').post('/invites', {
      invitee_emails: 'x@example.com',
      stream_ids: [4],
      include_realm_default_subscriptions: true,
      group_ids: [group.id],
      invite_as: 300,
    });
    expect(sent.body).toEqual({ result: 'success', msg: '' });
    const link = ((await control.outbox.list({ kind: 'email' })).items[0] as any).links.activate_url;
    const created = await control.invites.accept({ link, full_name: 'Xavier', password: 'a-good-password' });
    const subscribed = store()
      .subscriptions.filter((s) => s.user_id === created.user_id)
      .map((s) => s.stream_id)
      .sort();
    expect(subscribed).toEqual([...new Set([4, ...store().realm.default_stream_ids])].sort());
    expect(store().userGroups.get(group.id)!.direct_members).toContain(created.user_id);
    expect(store().userGroups.get(systemGroupId(store(), 'role:moderators'))!.direct_members).toContain(
      created.user_id,
    );
    expect(store().users.get(created.user_id)!.role).toBe(300);
    const dm = store()
      .messages.all()
      .find(
        (m) => m.type === 'private' && m.recipient_ids.includes(2) && m.sender_id === store().realm.notification_bot_id,
      );
    expect(dm?.content).toBe(`@_**Xavier|${created.user_id}** accepted your invitation to join Zulip!`);
    const announced = store()
      .messages.all()
      .find((m) => m.stream_id === store().realm.signup_announcements_stream_id && m.topic === 'signups');
    expect(announced?.content).toBe(`@_**Xavier|${created.user_id}** joined this organization.`);
  });

  it('sends no direct message to an inviter who did not ask for one', async () => {
    await t
      .as('iago')
      .post('/invites', { invitee_emails: 'quiet@example.com', stream_ids: [], notify_referrer_on_join: false });
    const link = ((await control.outbox.list({ kind: 'email' })).items[0] as any).links.activate_url;
    await control.invites.accept({ link, full_name: 'Quiet One', password: 'a-good-password' });
    expect(
      store()
        .messages.all()
        .some((m) => m.content.includes('accepted your invitation')),
    ).toBe(false);
  });

  it('sends invites_changed to administrators and the inviter, nobody else', async () => {
    const queues = Object.fromEntries(
      await Promise.all(
        ['iago', 'desdemona', 'hamlet', 'othello'].map(async (u) => [
          u,
          await registerQueue(t, u, ['invites_changed']),
        ]),
      ),
    );
    await t.as('hamlet').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [] });
    for (const who of ['iago', 'desdemona', 'hamlet'])
      expect(await eventsOf(t, who, queues[who])).toEqual([{ type: 'invites_changed', id: 0 }]);
    expect(await eventsOf(t, 'othello', queues.othello)).toEqual([]);
  });

  it('schedules the reminder two days before expiry (valid four days or more), on the mock clock', async () => {
    await control.clock.freeze();
    await t.as('iago').post('/invites', {
      invitee_emails: 'later@example.com, soon@example.com',
      stream_ids: [],
      invite_expires_in_minutes: 60 * 24 * 5,
    });
    await t.as('iago').post('/invites', {
      invitee_emails: 'short@example.com',
      stream_ids: [],
      invite_expires_in_minutes: 60 * 24 * 3,
    });
    expect((await control.outbox.list({ kind: 'email' })).items.map((i: any) => i.template)).toEqual([
      'invitation',
      'invitation',
      'invitation',
    ]);
    await control.clock.advance(3 * DAY_MS - 60_000);
    expect((await control.outbox.list({ kind: 'email' })).count).toBe(3);
    // One of the two is revoked: its reminder is not sent.
    const soon = (await t.as('iago').get('/invites')).body.invites.find((i: any) => i.email === 'soon@example.com');
    await t.as('iago').delete(`/invites/${soon.id}`);
    await control.clock.advance(120_000);
    const reminders = (await control.outbox.list({ kind: 'email' })).items.filter(
      (i: any) => i.template === 'invitation_reminder',
    ) as any[];
    expect(reminders.map((r) => [r.to, r.subject])).toEqual([
      ['later@example.com', 'Reminder: Join Iago at Zulip Dev'],
    ]);
    expect(reminders[0].text).toContain('Iago (iago@zulip.com) still invites you to Zulip Dev');
    expect(reminders[0].text).toContain(`<${reminders[0].links.activate_url}>`);
    expect(reminders[0].text).toContain('support@zulip.com');
  });

  it('expires invitations on the mock clock', async () => {
    await control.clock.freeze();
    await t
      .as('iago')
      .post('/invites', { invitee_emails: 'gone@example.com', stream_ids: [], invite_expires_in_minutes: 60 });
    const link = ((await control.outbox.list({ kind: 'email' })).items[0] as any).links.activate_url;
    await control.clock.advance(61 * 60_000);
    expect((await t.as('iago').get('/invites')).body.invites).toEqual([]);
    await expect(
      control.invites.accept({ link, full_name: 'Too Late', password: 'a-good-password' }),
    ).rejects.toMatchObject({ status: 400 });
    await t
      .as('iago')
      .post('/invites', { invitee_emails: 'forever@example.com', stream_ids: [], invite_expires_in_minutes: null });
    expect((await t.as('iago').get('/invites')).body.invites).toEqual([
      expect.objectContaining({ email: 'forever@example.com', expiry_date: null }),
    ]);
  });

  it('skips addresses in use, and fails all on an invalid one', async () => {
    const some = await t
      .as('iago')
      .post('/invites', { invitee_emails: 'hamlet@zulip.com, fresh@example.com', stream_ids: [] });
    expect(some.status).toBe(400);
    expect(some.body).toEqual({
      result: 'error',
      code: 'INVITATION_FAILED',
      msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      errors: [['hamlet@zulip.com', 'Already has an account.', false]],
      sent_invitations: true,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    expect((await t.as('iago').get('/invites')).body.invites.map((i: any) => i.email)).toEqual(['fresh@example.com']);
    const none = await t.as('iago').post('/invites', { invitee_emails: 'hamlet@zulip.com', stream_ids: [] });
    expect(none.body).toMatchObject({
      code: 'INVITATION_FAILED',
      msg: "We weren't able to invite anyone.",
      sent_invitations: false,
    });
    const bad = await t.as('iago').post('/invites', { invitee_emails: 'nope, ok@example.com', stream_ids: [] });
    expect(bad.body).toMatchObject({
      code: 'INVITATION_FAILED',
      msg: "Some emails did not validate, so we didn't send any invitations.",
      errors: [['nope', 'Invalid address.', false]],
      sent_invitations: false,
    });
    // The organization's address rules, as for an account's own address: a disposable provider.
    const disposable = await t.as('iago').post('/invites', { invitee_emails: 'x@mailinator.com', stream_ids: [] });
    expect(disposable.body).toMatchObject({
      code: 'INVITATION_FAILED',
      errors: [['x@mailinator.com', 'Please use your real email address.', false]],
      sent_invitations: false,
    });
    expectError(
      await t.as('iago').post('/invites', { invitee_emails: '', stream_ids: [] }),
      400,
      'BAD_REQUEST',
      'You must specify at least one email address.',
    );
  });

  it("applies the organization's address rules: its domains and no '+' when restricted", async () => {
    expect((await t.as('desdemona').patch('/realm', { emails_restricted_to_domains: true })).status).toBe(200);
    const r = await t
      .as('iago')
      .post('/invites', { invitee_emails: 'new+tag@zulip.com, new@elsewhere.example', stream_ids: [] });
    expect(r.body).toMatchObject({
      code: 'INVITATION_FAILED',
      msg: "Some emails did not validate, so we didn't send any invitations.",
      errors: [
        ['new+tag@zulip.com', 'Email addresses containing + are not allowed.', false],
        ['new@elsewhere.example', 'Outside your domain.', false],
      ],
      sent_invitations: false,
    });
    const ok = await t.as('iago').post('/invites', { invitee_emails: 'new@zulip.com', stream_ids: [] });
    expect(ok.body).toEqual({ result: 'success', msg: '' });
  });

  it('enforces who may invite and as what', async () => {
    expectError(
      await t.as('polonius').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [] }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await t.as('iago-bot').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [] }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
    expectError(
      await t.as('hamlet').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [], invite_as: 300 }),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator',
    );
    expectError(
      await t.as('iago').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [], invite_as: 100 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectError(
      await t.as('iago').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [], invite_as: 500 }),
      400,
      'BAD_REQUEST',
      'Invalid invite_as',
    );
    expectError(
      await t.as('iago').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [999] }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID 999. No invites were sent.',
    );
    expectError(
      await t.as('iago').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [], group_ids: [9999] }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    store().updateRealm({
      shown_settings: {
        ...store().realm.shown_settings,
        can_invite_users_group: systemGroupId(store(), 'role:administrators'),
      },
    });
    expectError(
      await t.as('hamlet').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect(
      (await t.as('desdemona').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [], invite_as: 100 }))
        .status,
    ).toBe(200);
  });

  it('lets a brand-new account invite, as the development server does (test/production/ has the production rule)', async () => {
    const hamlet = store().users.by('email', 'hamlet@zulip.com')!;
    store().users.update(hamlet, { date_joined: new Date(t.server.clock.nowMs() - 1000).toISOString() });
    expect((await t.as('hamlet').post('/invites', { invitee_emails: 'a@example.com', stream_ids: [] })).status).toBe(
      200,
    );
  });
});

describe('the daily invitation limit (development server: OPEN_REALM_CREATION)', () => {
  const addresses = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `spam${from + i}@example.com`).join(',');
  const limited = {
    result: 'error',
    code: 'INVITATION_FAILED',
    msg: 'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
    errors: [],
    sent_invitations: false,
    license_limit_reached: false,
    daily_limit_reached: true,
  };

  it('refuses invitations past 100 in a day, resends included, and counts yesterday too', async () => {
    await control.clock.freeze();
    expect((await t.as('iago').post('/invites', { invitee_emails: addresses(0, 99), stream_ids: [] })).status).toBe(
      200,
    );
    const over = await t.as('iago').post('/invites', { invitee_emails: addresses(99, 2), stream_ids: [] });
    expect(over.status).toBe(400);
    expect(over.body).toEqual(limited);
    expect((await t.as('iago').get('/invites')).body.invites).toHaveLength(99);
    expect((await t.as('iago').post('/invites', { invitee_emails: addresses(99, 1), stream_ids: [] })).status).toBe(
      200,
    );
    const [first] = (await t.as('iago').get('/invites')).body.invites;
    const resend = await t.as('iago').post(`/invites/${first.id}/resend`);
    expect(resend.status).toBe(400);
    expect(resend.body).toEqual(limited);
    // The real server sums today's and yesterday's counts: a day later it still refuses.
    await control.clock.advance(DAY_MS);
    expect((await t.as('iago').post('/invites', { invitee_emails: addresses(100, 1), stream_ids: [] })).body).toEqual(
      limited,
    );
    await control.clock.advance(DAY_MS);
    expect((await t.as('iago').post('/invites', { invitee_emails: addresses(100, 1), stream_ids: [] })).status).toBe(
      200,
    );
  });

  it('counts no invitations on a production server', async () => {
    const prod = await startTestServer({ production: true });
    try {
      const r = await prod.as('iago').post('/invites', { invitee_emails: addresses(0, 101), stream_ids: [] });
      expect(r.status).toBe(200);
    } finally {
      await prod.close();
    }
  });
});

describe('revoking and resending', () => {
  it('lets the inviter and administrators manage an invitation, nobody else', async () => {
    await t.as('hamlet').post('/invites', { invitee_emails: 'h@example.com', stream_ids: [] });
    const [invite] = (await t.as('hamlet').get('/invites')).body.invites;
    expect((await t.as('othello').get('/invites')).body.invites).toEqual([]);
    expectError(
      await t.as('othello').delete(`/invites/${invite.id}`),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator',
    );
    expectError(
      await t.as('othello').post(`/invites/${invite.id}/resend`),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator',
    );
    expect((await t.as('hamlet').post(`/invites/${invite.id}/resend`)).status).toBe(200);
    expect((await control.outbox.list({ kind: 'email', user: 'h@example.com' })).count).toBe(2);
    expect((await t.as('iago').delete(`/invites/${invite.id}`)).status).toBe(200);
    expectError(await t.as('iago').delete(`/invites/${invite.id}`), 400, 'BAD_REQUEST', 'No such invitation');
    expectError(await t.as('iago').post(`/invites/${invite.id}/resend`), 400, 'BAD_REQUEST', 'No such invitation');
  });

  it('only owners manage an invitation as owner', async () => {
    await t.as('desdemona').post('/invites', { invitee_emails: 'o@example.com', stream_ids: [], invite_as: 100 });
    const [invite] = (await t.as('desdemona').get('/invites')).body.invites;
    expectError(
      await t.as('iago').delete(`/invites/${invite.id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
  });
});

describe('reusable links', () => {
  it('creates a link that makes accounts until revoked', async () => {
    const r = await t.as('iago').post('/invites/multiuse', { stream_ids: [3], invite_as: 600 });
    expect(r.body.invite_link).toMatch(/\/join\/[a-z2-7]{24}\/$/);
    const [link] = (await t.as('iago').get('/invites')).body.invites;
    expect(link).toMatchObject({
      is_multiuse: true,
      invited_as: 600,
      link_url: r.body.invite_link,
      invited_by_user_id: 2,
    });
    expect(link).not.toHaveProperty('email');
    // The real server lists a link without notify_referrer_on_join (only email invitations carry it).
    expect(link).not.toHaveProperty('notify_referrer_on_join');
    const a = await control.invites.accept({
      link: r.body.invite_link,
      full_name: 'Guest A',
      password: 'a-good-password',
      email: 'ga@example.com',
    });
    const b = await control.invites.accept({
      link: r.body.invite_link,
      full_name: 'Guest B',
      password: 'a-good-password',
      email: 'gb@example.com',
    });
    expect([store().users.get(a.user_id)!.role, store().users.get(b.user_id)!.role]).toEqual([600, 600]);
    expect((await t.as('iago').delete(`/invites/multiuse/${link.id}`)).status).toBe(200);
    expectError(
      await t.as('iago').delete(`/invites/multiuse/${link.id}`),
      400,
      'BAD_REQUEST',
      'Invitation has already been revoked',
    );
    expectError(await t.as('iago').delete('/invites/multiuse/99'), 400, 'BAD_REQUEST', 'No such invitation');
    await expect(
      control.invites.accept({
        link: r.body.invite_link,
        full_name: 'Guest C',
        password: 'a-good-password',
        email: 'gc@example.com',
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('needs create_multiuse_invite_group (administrators only before FL 209)', async () => {
    expectError(await t.as('hamlet').post('/invites/multiuse', {}), 400, 'BAD_REQUEST', 'Insufficient permission');
    store().updateRealm({
      shown_settings: {
        ...store().realm.shown_settings,
        create_multiuse_invite_group: systemGroupId(store(), 'role:members'),
      },
    });
    expect((await t.as('hamlet').post('/invites/multiuse', {})).status).toBe(200);
  });

  it('answers as a server before FL 209: administrators only', async () => {
    store().updateRealm({
      shown_settings: {
        ...store().realm.shown_settings,
        create_multiuse_invite_group: systemGroupId(store(), 'role:members'),
      },
    });
    const old = t.as('hamlet', { 'X-Mock-Feature-Level': '200' });
    expectError(
      await old.post('/invites/multiuse', {}),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect((await t.as('iago', { 'X-Mock-Feature-Level': '200' }).post('/invites/multiuse', {})).status).toBe(200);
  });
});

describe('older levels', () => {
  it("ignores parameters newer than the request's level (group_ids 322, notify_referrer_on_join 267, default channels 261)", async () => {
    const old = t.as('iago', { 'X-Mock-Feature-Level': '260' });
    const r = await old.post('/invites', {
      invitee_emails: 'old@example.com',
      stream_ids: [],
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: false,
      group_ids: [11],
    });
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['group_ids', 'include_realm_default_subscriptions', 'notify_referrer_on_join'],
    });
    const [invite] = (await old.get('/invites')).body.invites;
    expect(invite).not.toHaveProperty('notify_referrer_on_join');
    const row = store().invites.find((i) => i.email === 'old@example.com')!;
    expect([row.include_realm_default_subscriptions, row.notify_referrer_on_join, row.group_ids]).toEqual([
      false,
      true,
      [],
    ]);
  });

  it('tells only administrators of invitation changes before FL 209', async () => {
    const hamletQueue = await registerQueue(t, 'hamlet', ['invites_changed']);
    const iagoQueue = await registerQueue(t, 'iago', ['invites_changed']);
    await t
      .as('hamlet', { 'X-Mock-Feature-Level': '200' })
      .post('/invites', { invitee_emails: 'b@example.com', stream_ids: [] });
    expect(await eventsOf(t, 'hamlet', hamletQueue)).toEqual([]);
    expect(await eventsOf(t, 'iago', iagoQueue)).toEqual([{ type: 'invites_changed', id: 0 }]);
  });
});
