// POST /users/me/status: partial changes, the emoji per reaction_type, away as the inverse of
// presence_enabled, the six documented errors (and the real server's finer emoji errors), events.
import { describe, expect, it, vi } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const statusOf = (who: string) => t.user(who).status;
const ok = { result: 'success', msg: '' };

describe('POST /users/me/status: changes', () => {
  it('changes only the passed fields', async () => {
    // othello: "on vacation" with palm_tree.
    let r = await t.as('othello').post('/users/me/status', { status_text: '  in a meeting  ' });
    expect(r.body).toEqual(ok);
    expect(statusOf('othello')).toEqual({
      status_text: 'in a meeting',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });

    r = await t.as('othello').post('/users/me/status', { emoji_name: 'car' });
    expect(r.body).toEqual(ok);
    expect(statusOf('othello')).toEqual({
      status_text: 'in a meeting',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    expect(t.user('othello').settings.presence_enabled).toBe(true);
  });

  it('clears the text with an empty string and the emoji with an empty name', async () => {
    await t.as('othello').post('/users/me/status', { status_text: '' });
    expect(statusOf('othello').status_text).toBe('');
    expect(statusOf('othello').emoji_name).toBe('palm_tree');
    await t.as('othello').post('/users/me/status', { emoji_name: '', emoji_code: '1f697' });
    expect(statusOf('othello')).toEqual({ status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' });
  });

  it('accepts a consistent unicode name, code and type', async () => {
    const r = await t
      .as('hamlet')
      .post('/users/me/status', { emoji_name: 'computer', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' });
    expect(r.body).toEqual(ok);
    expect(statusOf('hamlet')).toMatchObject({
      emoji_name: 'computer',
      emoji_code: '1f4bb',
      reaction_type: 'unicode_emoji',
    });
  });

  it('finds a custom emoji by name and takes its ID as the code', async () => {
    const r = await t.as('hamlet').post('/users/me/status', { emoji_name: 'green_tick' });
    expect(r.body).toEqual(ok);
    expect(statusOf('hamlet')).toMatchObject({
      emoji_name: 'green_tick',
      emoji_code: '1',
      reaction_type: 'realm_emoji',
    });
  });

  it("accepts the server's extra emoji under either name of its namespace", async () => {
    await t.as('hamlet').post('/users/me/status', { emoji_name: 'zulip' });
    expect(statusOf('hamlet')).toMatchObject({
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'service_extra_emoji',
    });
    const r = await t
      .as('cordelia')
      .post('/users/me/status', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    expect(r.body).toEqual(ok);
    expect(statusOf('cordelia').reaction_type).toBe('service_extra_emoji');
  });

  it('away=true turns presence_enabled off, away=false turns it back on', async () => {
    let r = await t.as('hamlet').post('/users/me/status', { away: true });
    expect(r.body).toEqual(ok);
    expect(t.user('hamlet').settings.presence_enabled).toBe(false);
    expect(statusOf('hamlet').status_text).toBe('');
    r = await t.as('hamlet').post('/users/me/status', { away: false });
    expect(t.user('hamlet').settings.presence_enabled).toBe(true);
  });

  it('publishes a user_status event with only the passed fields to every active user', async () => {
    const publish = vi.spyOn(t.server.world.events, 'publish');
    await t.as('hamlet').post('/users/me/status', { status_text: 'at the beach', emoji_name: 'palm_tree' });
    const statusEvents = publish.mock.calls.filter(([, e]) => e.type === 'user_status');
    expect(statusEvents).toHaveLength(1);
    const [ids, event] = statusEvents[0];
    expect(event).toEqual({
      type: 'user_status',
      user_id: t.user('hamlet').user_id,
      status_text: 'at the beach',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });
    expect([...ids]).toContain(t.user('polonius').user_id);
    expect([...ids]).not.toContain(t.user('ariel').user_id);
  });

  it('refuses bots', async () => {
    const r = await t.as('hamlet-bot').post('/users/me/status', { status_text: 'beep' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'This endpoint does not accept bot requests.'));
    expect(statusOf('hamlet-bot').status_text).toBe('');
  });
});

describe('POST /users/me/status: errors', () => {
  it.each([
    ['no new values', {}, 'Client did not pass any new values.'],
    ['only an emoji code', { emoji_code: '1f697' }, 'Client did not pass any new values.'],
    ['status_text too long', { status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [
      'emoji_code without emoji_name',
      { status_text: 'busy', emoji_code: '1f4bb' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    [
      'reaction_type without emoji_name',
      { away: true, reaction_type: 'unicode_emoji' },
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    ],
    ['an unknown emoji name', { status_text: 'busy', emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
    ['a deactivated custom emoji by name', { emoji_name: 'old_logo' }, "Emoji 'old_logo' does not exist"],
    ['a name that does not match the code', { emoji_name: 'car', emoji_code: '1f4bb' }, 'Invalid emoji name.'],
    [
      'an unknown custom emoji ID',
      { emoji_name: 'green_tick', emoji_code: '99', reaction_type: 'realm_emoji' },
      'Invalid custom emoji.',
    ],
    [
      'a custom emoji ID under another name',
      { emoji_name: 'car', emoji_code: '1', reaction_type: 'realm_emoji' },
      'Invalid custom emoji name.',
    ],
    [
      'a deactivated custom emoji by ID',
      { emoji_name: 'old_logo', emoji_code: '2', reaction_type: 'realm_emoji' },
      'This custom emoji has been deactivated.',
    ],
    [
      'an unknown unicode code',
      { emoji_name: 'car', emoji_code: 'fffff', reaction_type: 'unicode_emoji' },
      'Invalid emoji code.',
    ],
  ])('%s', async (_case, params, msg) => {
    const before = structuredClone(statusOf('othello'));
    const r = await t.as('othello').post('/users/me/status', params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', msg));
    expect(statusOf('othello')).toEqual(before);
    expect(t.user('othello').settings.presence_enabled).toBe(true);
  });
});
