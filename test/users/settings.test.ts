// PATCH /settings (and its deprecated aliases) for the caller's own account: every kind of
// setting, the display name, the pending email change, the password change, drafts deleted
// with synchronization off, the server-side value checks, and the events.
import { describe, expect, it, vi } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue, watchEvents } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const settingsOf = (who: string) => t.user(who).settings;

describe('PATCH /settings: personal settings', () => {
  it('changes booleans, integer choices and string choices, leaving the rest alone', async () => {
    const before = { ...settingsOf('hamlet') };
    const r = await t.as('hamlet').patch('/settings', {
      twenty_four_hour_time: true,
      color_scheme: 2,
      web_home_view: 'recent',
      emojiset: 'text',
      web_font_size_px: 18,
      enable_stream_push_notifications: true,
      web_animate_image_previews: 'never',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(settingsOf('hamlet')).toEqual({
      ...before,
      twenty_four_hour_time: true,
      color_scheme: 2,
      web_home_view: 'recent',
      emojiset: 'text',
      web_font_size_px: 18,
      enable_stream_push_notifications: true,
      web_animate_image_previews: 'never',
    });
    expect(settingsOf('othello').color_scheme).toBe(2); // othello's own value, untouched
    expect(settingsOf('iago').twenty_four_hour_time).toBe(false);
  });

  it.each(['/settings/display', '/settings/notifications'])(
    'the deprecated alias %s behaves as PATCH /settings',
    async (path) => {
      const r = await t
        .as('hamlet')
        .patch(path, { high_contrast_mode: true, enable_sounds: false, full_name: 'Prince Hamlet' });
      expect(r.body).toEqual({ result: 'success', msg: '' });
      expect(settingsOf('hamlet')).toMatchObject({ high_contrast_mode: true, enable_sounds: false });
      expect((await t.as('hamlet').get('/users/me')).body.full_name).toBe('Prince Hamlet');
    },
  );

  it("rejects a value outside an integer setting's choices", async () => {
    const r = await t.as('hamlet').patch('/settings', { color_scheme: 7 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid color_scheme'));
    expect(settingsOf('hamlet').color_scheme).toBe(1);
  });

  it('lists unknown parameters in ignored_parameters_unsupported and still applies the known ones', async () => {
    const r = await t.as('hamlet').patch('/settings', { left_side_userlist: true, dense_mode: true, night_mode: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['dense_mode', 'night_mode'],
    });
    expect(settingsOf('hamlet').left_side_userlist).toBe(true);
  });

  it('records which settings the user changed, and only those that changed', async () => {
    await t.as('hamlet').patch('/settings', { color_scheme: 3, starred_message_counts: true /* already true */ });
    expect(t.user('hamlet').settings_edited).toEqual(['color_scheme']);
  });

  it('publishes a user_settings update event to the user for each changed setting', async () => {
    const publish = vi.spyOn(t.server.world.events, 'publish');
    await t
      .as('hamlet')
      .patch('/settings', { color_scheme: 2, default_language: 'de', enable_sounds: true /* unchanged */ });
    const hamlet = t.user('hamlet').user_id;
    const sent = publish.mock.calls.map(([ids, event]) => ({ ids: [...ids], event }));
    const legacy = (setting_name: string, setting: unknown, extra = {}) => ({
      ids: [hamlet],
      event: { type: 'update_display_settings', user: 'hamlet@zulip.com', setting_name, setting, ...extra },
    });
    // Each with its legacy form (both are legacy display settings), for queues without user_settings_object.
    expect(sent).toEqual([
      { ids: [hamlet], event: { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 } },
      legacy('color_scheme', 2),
      {
        ids: [hamlet],
        event: {
          type: 'user_settings',
          op: 'update',
          property: 'default_language',
          value: 'de',
          language_name: 'Deutsch',
        },
      },
      legacy('default_language', 'de', { language_name: 'Deutsch' }),
    ]);
  });

  it('sends the legacy events only to queues without user_settings_object below FL 439, and none for newer settings', async () => {
    const modern = await registerQueue(t, 'hamlet', undefined, { client_capabilities: { user_settings_object: true } });
    const newest = await registerQueue(t, 'hamlet');
    const legacy = (
      await t.as('hamlet', { 'X-Mock-Feature-Level': '438' }).post('/register', { fetch_event_types: [] })
    ).body.queue_id as string;
    const r = await t.as('hamlet').patch('/settings', { enable_sounds: false, web_font_size_px: 18 });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    // In the order the description lists the settings.
    const settings = [
      { type: 'user_settings', op: 'update', property: 'web_font_size_px', value: 18 },
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
    ];
    expect((await eventsOf(t, 'hamlet', modern)).map(({ id: _, ...e }) => e)).toEqual(settings);
    // From FL 439 the legacy event types are gone for every client.
    expect((await eventsOf(t, 'hamlet', newest)).map(({ id: _, ...e }) => e)).toEqual(settings);
    expect((await eventsOf(t, 'hamlet', legacy)).map(({ id: _, ...e }) => e)).toEqual([
      ...settings,
      {
        type: 'update_global_notifications',
        user: 'hamlet@zulip.com',
        notification_name: 'enable_sounds',
        setting: false,
      },
    ]);
  });

  it('refuses bots', async () => {
    const r = await t.as('iago-bot').patch('/settings', { color_scheme: 2 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'This endpoint does not accept bot requests.'));
    expect(settingsOf('iago-bot').color_scheme).toBe(1);
  });
});

describe('PATCH /settings: values the server checks', () => {
  it('accepts a language the server has and refuses one it has not', async () => {
    expect((await t.as('hamlet').patch('/settings', { default_language: 'fr' })).status).toBe(200);
    expect(settingsOf('hamlet').default_language).toBe('fr');
    const r = await t.as('hamlet').patch('/settings', { default_language: 'xx' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid default_language'));
    expect(settingsOf('hamlet').default_language).toBe('fr');
  });

  it('accepts an IANA time zone, shown on GET /users/me, and refuses an unknown one', async () => {
    expect((await t.as('hamlet').patch('/settings', { timezone: 'Asia/Tokyo' })).status).toBe(200);
    expect((await t.as('hamlet').get('/users/me')).body.timezone).toBe('Asia/Tokyo');
    expect(settingsOf('hamlet').timezone).toBe('Asia/Tokyo');
    for (const zone of ['Mars/Olympus_Mons', '+01:00']) {
      const r = await t.as('hamlet').patch('/settings', { timezone: zone });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'timezone is not a recognized time zone'));
    }
    expect((await t.as('hamlet').get('/users/me')).body.timezone).toBe('Asia/Tokyo');
  });

  it('accepts a known notification sound or none, refuses others', async () => {
    expect((await t.as('hamlet').patch('/settings', { notification_sound: 'ding' })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { notification_sound: 'none' })).status).toBe(200);
    expect(settingsOf('hamlet').notification_sound).toBe('none');
    const r = await t.as('hamlet').patch('/settings', { notification_sound: 'bell' });
    expect(r.body).toEqual(error('BAD_REQUEST', "Invalid notification sound 'bell'"));
  });

  it('keeps the email batching period between one second and one week', async () => {
    expect(
      (await t.as('hamlet').patch('/settings', { email_notifications_batching_period_seconds: 604800 })).status,
    ).toBe(200);
    for (const seconds of [0, 604801]) {
      const r = await t.as('hamlet').patch('/settings', { email_notifications_batching_period_seconds: seconds });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', `Invalid email batching period: ${seconds} seconds`));
    }
    expect(settingsOf('hamlet').email_notifications_batching_period_seconds).toBe(604800);
  });

  it('changes nothing when one value of the request is refused', async () => {
    const r = await t
      .as('hamlet')
      .patch('/settings', { color_scheme: 2, full_name: 'Hamlet II', default_language: 'xx' });
    expect(r.status).toBe(400);
    expect(settingsOf('hamlet').color_scheme).toBe(1);
    expect(t.user('hamlet').full_name).toBe('King Hamlet');
  });
});

describe('PATCH /settings: account fields', () => {
  it('renames the user (stripped), visible on GET /users/me, with a realm_user event to everyone', async () => {
    const publish = vi.spyOn(t.server.world.events, 'publish');
    const r = await t.as('hamlet').patch('/settings', { full_name: '  Prince Hamlet  ' });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect((await t.as('hamlet').get('/users/me')).body.full_name).toBe('Prince Hamlet');
    const [ids, event] = publish.mock.calls[0];
    expect(event).toEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: t.user('hamlet').user_id, full_name: 'Prince Hamlet' },
    });
    expect([...ids]).toContain(t.user('iago').user_id);
  });

  it.each([
    ['H', 'Name too short!'],
    ['x'.repeat(101), 'Name too long!'],
    ['Hamlet @ Elsinore', 'Invalid characters in name!'],
  ])('refuses the name %j: %s', async (name, msg) => {
    const r = await t.as('hamlet').patch('/settings', { full_name: name });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', msg));
    expect((await t.as('hamlet').get('/users/me')).body.full_name).toBe('King Hamlet');
  });

  it('starts an email change: the address stays as it is until confirmed', async () => {
    const r = await t.as('hamlet').patch('/settings', { email: 'prince@elsinore.dk' });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const me = (await t.as('hamlet').get('/users/me')).body;
    expect(me.email).toBe('hamlet@zulip.com');
    expect(me.delivery_email).toBe('hamlet@zulip.com');
    expect(t.user('hamlet').pending_email).toBe('prince@elsinore.dk');
  });

  it.each([
    ['not-an-address', 'Invalid address.'],
    ['othello@zulip.com', 'Already has an account.'],
    ['ariel@zulip.com', 'Account has been deactivated.'],
  ])('refuses the new address %s', async (email, msg) => {
    const r = await t.as('hamlet').patch('/settings', { email });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', msg));
    expect(t.user('hamlet').pending_email).toBeNull();
  });

  it('changes the password only with the correct old password', async () => {
    let r = await t.as('hamlet').patch('/settings', { old_password: 'wrong', new_password: 'a-new-secret' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Wrong password!'));
    r = await t.as('hamlet').patch('/settings', { new_password: 'a-new-secret' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Wrong password!'));
    expect(t.user('hamlet').password).toBe('password_hamlet');

    // The development server's rules: any password but the empty one (test/production/ has production's).
    r = await t.as('hamlet').patch('/settings', { old_password: 'password_hamlet', new_password: '' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'New password is too weak!'));
    expect(t.user('hamlet').password).toBe('password_hamlet');

    r = await t.as('hamlet').patch('/settings', { old_password: 'password_hamlet', new_password: 'a-new-secret' });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(t.user('hamlet').password).toBe('a-new-secret');
  });

  it("deletes the user's stored drafts, and only theirs, when draft synchronization is turned off", async () => {
    const store = t.server.world.store;
    const othello = t.user('othello').user_id;
    store.drafts.insert({
      id: store.nextId('drafts'),
      user_id: othello,
      type: '',
      to: [],
      topic: '',
      content: 'Put out the light',
      timestamp: 1,
    });
    expect(store.drafts.filter((d) => d.user_id === t.user('hamlet').user_id)).toHaveLength(2);

    const r = await t.as('hamlet').patch('/settings', { enable_drafts_synchronization: false });
    expect(r.status).toBe(200);
    expect(settingsOf('hamlet').enable_drafts_synchronization).toBe(false);
    expect(store.drafts.filter((d) => d.user_id === t.user('hamlet').user_id)).toEqual([]);
    expect(store.drafts.filter((d) => d.user_id === othello)).toHaveLength(1);
  });
});

describe('PATCH /settings: the order of its parts, as the real server handles them', () => {
  const ok = { result: 'success', msg: '' };
  const emailsTo = async (address: string) =>
    ((await new ControlClient(t.base).outbox.list({ kind: 'email', user: address })).items as any[])
      .filter((e) => e.to === address)
      .map((e) => e.template);

  it('sends the confirmation of a new address before refusing the name: the change stays pending', async () => {
    const r = await t.as('hamlet').patch('/settings', { email: 'prince@elsinore.example', full_name: 'H' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Name too short!'));
    expect(t.user('hamlet').pending_email).toBe('prince@elsinore.example');
    expect(await emailsTo('prince@elsinore.example')).toEqual(['confirm_new_email']);
    expect(t.user('hamlet').full_name).toBe('King Hamlet');
  });

  it('changes the password before refusing the new address', async () => {
    const r = await t
      .as('hamlet')
      .patch('/settings', { old_password: 'password_hamlet', new_password: 'a-new-secret', email: 'not-an-address' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid address.'));
    expect(t.user('hamlet').password).toBe('a-new-secret');
    expect(t.user('hamlet').pending_email).toBeNull();
  });

  it('checks the password before the address: a wrong one sends no confirmation', async () => {
    const r = await t
      .as('hamlet')
      .patch('/settings', { old_password: 'wrong', new_password: 'a-new-secret', email: 'prince@elsinore.example' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Wrong password!'));
    expect(t.user('hamlet').pending_email).toBeNull();
    expect(await emailsTo('prince@elsinore.example')).toEqual([]);
  });

  it('renames before changing settings: a refused name leaves the settings as they were', async () => {
    const r = await t.as('hamlet').patch('/settings', { color_scheme: 2, full_name: 'Hamlet @ Elsinore' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid characters in name!'));
    expect(settingsOf('hamlet').color_scheme).toBe(1);
  });

  it("ignores a member's new name when the organization disables name changes, not an administrator's", async () => {
    expect((await t.as('desdemona').patch('/realm', { name_changes_disabled: true })).status).toBe(200);
    const r = await t.as('hamlet').patch('/settings', { full_name: 'H' /* not even checked */, color_scheme: 2 });
    expect(r.body).toEqual(ok);
    expect(t.user('hamlet').full_name).toBe('King Hamlet');
    expect(settingsOf('hamlet').color_scheme).toBe(2);
    expect((await t.as('iago').patch('/settings', { full_name: 'Iago the Ensign' })).body).toEqual(ok);
    expect(t.user('iago').full_name).toBe('Iago the Ensign');
  });

  it("changes the time zone after the other settings; everyone's realm_user event carries the API email", async () => {
    const events = watchEvents(t);
    const hamlet = t.user('hamlet');
    const r = await t.as('hamlet').patch('/settings', { timezone: 'Asia/Tokyo', color_scheme: 2 });
    expect(r.body).toEqual(ok);
    const everyone = t.server.world.store.users
      .filter((u) => u.is_active)
      .map((u) => u.user_id)
      .sort((a, b) => a - b);
    expect(events.map((e) => ({ ...e, users: [...e.users].sort((a, b) => a - b) }))).toEqual([
      { users: [hamlet.user_id], event: { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 } },
      {
        users: [hamlet.user_id],
        event: {
          type: 'update_display_settings',
          user: 'hamlet@zulip.com',
          setting_name: 'color_scheme',
          setting: 2,
        },
      },
      {
        users: [hamlet.user_id],
        event: { type: 'user_settings', op: 'update', property: 'timezone', value: 'Asia/Tokyo' },
      },
      {
        users: [hamlet.user_id],
        event: {
          type: 'update_display_settings',
          user: 'hamlet@zulip.com',
          setting_name: 'timezone',
          setting: 'Asia/Tokyo',
        },
      },
      {
        users: everyone,
        event: {
          type: 'realm_user',
          op: 'update',
          person: { email: 'hamlet@zulip.com', user_id: hamlet.user_id, timezone: 'Asia/Tokyo' },
        },
      },
    ]);
  });
});
