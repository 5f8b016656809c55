// PATCH /settings with target_users: administrators apply settings to listed users and to the
// active members of listed groups, optionally skipping users who set the value themselves.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const scheme = (who: string) => t.user(who).settings.color_scheme;

describe('PATCH /settings with target_users', () => {
  it('is refused to members and moderators with UNAUTHORIZED_PRINCIPAL', async () => {
    for (const who of ['hamlet', 'shiva']) {
      const r = await t.as(who).patch('/settings', { color_scheme: 3, target_users: { user_ids: [id('cordelia')] } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: 'Must be an organization administrator',
        code: 'UNAUTHORIZED_PRINCIPAL',
      });
    }
    expect(scheme('cordelia')).toBe(1);
    expect(scheme('hamlet')).toBe(1);
  });

  it('lets an administrator update the listed users, not the caller', async () => {
    const r = await t.as('iago').patch('/settings', {
      color_scheme: 3,
      web_font_size_px: 20,
      target_users: { user_ids: [id('hamlet'), id('cordelia')] },
    });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(t.user('hamlet').settings).toMatchObject({ color_scheme: 3, web_font_size_px: 20 });
    expect(t.user('cordelia').settings).toMatchObject({ color_scheme: 3, web_font_size_px: 20 });
    expect(scheme('iago')).toBe(1);
    expect(scheme('aaron')).toBe(1);
    // Changes made by an administrator do not count as the user's own edits.
    expect(t.user('hamlet').settings_edited).toEqual([]);
  });

  it('updates the active members of a group, subgroups included, but not bots or deactivated members', async () => {
    const store = t.server.world.store;
    // backend = othello, prospero + subgroup hamletcharacters (hamlet, cordelia); add a bot and ariel (deactivated).
    const backend = store.userGroups.get(groupId(t, 'backend'))!;
    store.userGroups.update(backend, { direct_members: [...backend.direct_members, id('hamlet-bot'), id('ariel')] });

    const r = await t
      .as('desdemona')
      .patch('/settings', { web_home_view: 'all_messages', target_users: { group_ids: [groupId(t, 'backend')] } });
    expect(r.status).toBe(200);
    for (const who of ['othello', 'prospero', 'hamlet', 'cordelia'])
      expect(t.user(who).settings.web_home_view).toBe('all_messages');
    for (const who of ['hamlet-bot', 'ariel', 'aaron', 'desdemona'])
      expect(t.user(who).settings.web_home_view).toBe('inbox');
  });

  it('includes a deactivated user listed by ID', async () => {
    const r = await t.as('iago').patch('/settings', { color_scheme: 2, target_users: { user_ids: [id('ariel')] } });
    expect(r.status).toBe(200);
    expect(scheme('ariel')).toBe(2);
  });

  it('with skip_if_already_edited, keeps the value of users who changed that setting themselves', async () => {
    // cordelia set color_scheme herself; othello's fixture history says he edited it already.
    await t.as('cordelia').patch('/settings', { color_scheme: 3 });
    const r = await t.as('iago').patch('/settings', {
      color_scheme: 2,
      twenty_four_hour_time: true,
      target_users: { user_ids: [id('hamlet'), id('cordelia'), id('othello')], skip_if_already_edited: true },
    });
    expect(r.status).toBe(200);
    expect(scheme('hamlet')).toBe(2);
    expect(scheme('cordelia')).toBe(3);
    expect(scheme('othello')).toBe(2);
    // The skip is per setting: cordelia never edited twenty_four_hour_time.
    expect(t.user('cordelia').settings.twenty_four_hour_time).toBe(true);

    await t.as('iago').patch('/settings', {
      color_scheme: 1,
      target_users: { user_ids: [id('cordelia')], skip_if_already_edited: false },
    });
    expect(scheme('cordelia')).toBe(1);
  });

  it("honours skip_if_already_edited for the fixture's record of earlier edits", async () => {
    t.server.world.store.users.update(t.user('othello'), {
      settings: { ...t.user('othello').settings, color_scheme: 3 },
    });
    await t.as('iago').patch('/settings', {
      color_scheme: 2,
      target_users: { user_ids: [id('othello')], skip_if_already_edited: true },
    });
    expect(scheme('othello')).toBe(3);
  });

  it.each([
    [{ email: 'x@example.com' }],
    [{ new_password: 'a-new-secret', old_password: 'password_iago' }],
    [{ timezone: 'Asia/Tokyo' }],
    [{ presence_enabled: false }],
    [{ send_read_receipts: false }],
  ])('refuses to change %j for other users', async (params) => {
    const r = await t.as('iago').patch('/settings', { ...params, target_users: { user_ids: [id('hamlet')] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Cannot change this setting for other users.'));
    expect(t.user('hamlet').settings.presence_enabled).toBe(true);
    expect(t.user('hamlet').timezone).toBe('Europe/Copenhagen');
  });

  it('needs at least one user or group, and existing ones', async () => {
    let r = await t
      .as('iago')
      .patch('/settings', { color_scheme: 2, target_users: { user_ids: [], skip_if_already_edited: true } });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Either user_ids or group_ids must be provided.'));
    r = await t.as('iago').patch('/settings', { color_scheme: 2, target_users: { group_ids: [999] } });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid user group ID: 999'));
    r = await t.as('iago').patch('/settings', { color_scheme: 2, target_users: { user_ids: [id('hamlet'), 999] } });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid user ID: 999'));
    expect(scheme('hamlet')).toBe(1);
  });
});
