// DELETE /users/{user_id}: administrators only, owners protect owners, the only owner stays, the
// user's bots go first, the four actions, and the deactivated credentials afterwards.
import { describe, expect, it, vi } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import type { Message } from '../../src/store/state.js';
import { upload } from '../helpers/uploads.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const ok = { result: 'success', msg: '' };
const sentBy = (who: string) =>
  t.server.world.store.messages
    .filter((m) => m.sender_id === id(who))
    .map((m) => m.id)
    .sort((a, b) => a - b);

/** Hamlet's messages in the fixture, by kind. */
function hamletMessages() {
  const store = t.server.world.store;
  const kind = (m: Message) =>
    m.type === 'private' ? 'direct' : store.streams.get(m.stream_id!)!.invite_only ? 'private' : 'public';
  const out: Record<string, number[]> = { public: [], private: [], direct: [] };
  for (const m of store.messages.filter((x) => x.sender_id === id('hamlet'))) out[kind(m)].push(m.id);
  return out;
}

describe('DELETE /users/{user_id}: permissions', () => {
  it('is refused to members and moderators', async () => {
    for (const who of ['othello', 'shiva']) {
      const r = await t.as(who).delete(`/users/${id('hamlet')}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: 'Must be an organization administrator',
        code: 'UNAUTHORIZED_PRINCIPAL',
      });
    }
    expect(t.user('hamlet').is_active).toBe(true);
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
  });

  it('lets an administrator deactivate a member, whose credentials then get 401', async () => {
    const r = await t.as('iago').delete(`/users/${id('hamlet')}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(ok);
    const me = await t.as('hamlet').get('/users/me');
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' });
  });

  it('keeps group memberships but no longer counts the user as a member', async () => {
    const group = t.server.world.store.userGroups.find((g) => g.name === 'hamletcharacters')!;
    await t.as('iago').delete(`/users/${id('hamlet')}`);
    expect(group.direct_members).toContain(id('hamlet'));
    const r = await t.as('cordelia').get(`/user_groups/${group.id}/members/${id('hamlet')}`);
    expect(r.body).toEqual({ ...ok, is_user_group_member: false });
  });

  it('does not find unknown users, deactivated users or bots', async () => {
    for (const target of [9999, id('ariel'), id('iago-bot')]) {
      const r = await t.as('iago').delete(`/users/${target}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'No such user'));
    }
    expect(t.user('iago-bot').is_active).toBe(true);
  });

  it('lets only an owner deactivate an owner', async () => {
    t.server.world.store.users.update(t.user('iago'), { role: 100 });
    t.server.world.store.users.update(t.user('shiva'), { role: 200 });
    let r = await t.as('shiva').delete(`/users/${id('desdemona')}`);
    expect(r.body).toEqual({ result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
    expect(t.user('desdemona').is_active).toBe(true);
    r = await t.as('iago').delete(`/users/${id('desdemona')}`);
    expect(r.body).toEqual(ok);
    expect(t.user('desdemona').is_active).toBe(false);
  });

  it('refuses to deactivate the only organization owner', async () => {
    const r = await t.as('desdemona').delete(`/users/${id('desdemona')}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Cannot deactivate the only organization owner'));
    expect(t.user('desdemona').is_active).toBe(true);
  });
});

describe('DELETE /users/{user_id}: bots and events', () => {
  it("deactivates the user's bots first, and only theirs", async () => {
    const publish = vi.spyOn(t.server.world.events, 'publish');
    await t.as('iago').delete(`/users/${id('hamlet')}`);
    expect(t.user('hamlet-bot').is_active).toBe(false);
    expect(t.user('iago-bot').is_active).toBe(true);
    expect((await t.as('hamlet-bot').get('/users/me')).status).toBe(401);

    const deactivations = publish.mock.calls
      .filter(([, e]) => e.type === 'realm_user' && (e.person as { is_active?: boolean }).is_active === false)
      .map(([, e]) => (e.person as { user_id: number }).user_id);
    expect(deactivations).toEqual([id('hamlet-bot'), id('hamlet')]);
    const botEvent = publish.mock.calls.find(([, e]) => e.type === 'realm_bot')!;
    expect(botEvent[1]).toEqual({
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: id('hamlet-bot'), is_active: false },
    });
    expect([...botEvent[0]].sort()).toEqual([id('desdemona'), id('iago'), id('hamlet')].sort());
  });
});

describe('DELETE /users/{user_id}: actions', () => {
  it('changes neither name nor messages without actions', async () => {
    const before = sentBy('hamlet');
    await t.as('iago').delete(`/users/${id('hamlet')}`);
    expect(t.user('hamlet').full_name).toBe('King Hamlet');
    expect(sentBy('hamlet')).toEqual(before);
  });

  it('delete_profile renames the user and the bots to "Deleted user" and resets the avatar', async () => {
    await t.as('iago').delete(`/users/${id('hamlet')}`, { actions: { delete_profile: true } });
    expect(t.user('hamlet')).toMatchObject({ full_name: 'Deleted user', avatar_version: 2 });
    expect(t.user('hamlet-bot')).toMatchObject({ full_name: 'Deleted user', avatar_version: 2 });
    expect(t.user('iago-bot').full_name).toBe("Iago's Bot");
  });

  it.each([
    ['delete_public_channel_messages', ['public']],
    ['delete_private_channel_messages', ['private']],
    ['delete_direct_messages', ['direct']],
  ] as const)('%s deletes exactly those messages of the user', async (action, kinds) => {
    const mine = hamletMessages();
    expect(mine.public.length && mine.private.length && mine.direct.length).toBeTruthy();
    const othersBefore = t.server.world.store.messages.filter((m) => m.sender_id !== id('hamlet')).length;
    const r = await t.as('iago').delete(`/users/${id('hamlet')}`, { actions: { [action]: true } });
    expect(r.body).toEqual(ok);
    const after = hamletMessages();
    for (const kind of ['public', 'private', 'direct'] as const) {
      expect(after[kind]).toEqual((kinds as readonly string[]).includes(kind) ? [] : mine[kind]);
    }
    expect(t.server.world.store.messages.filter((m) => m.sender_id !== id('hamlet')).length).toBe(othersBefore);
  });

  it("applies the actions to the user's bots too, and publishes delete_message events", async () => {
    const store = t.server.world.store;
    const verona = store.streams.by('name', 'verona')!;
    const botMessage = store.messages.insert({
      id: store.nextId('messages'),
      sender_id: id('hamlet-bot'),
      type: 'stream',
      stream_id: verona.stream_id,
      topic: 'bots',
      recipient_ids: [],
      content: 'beep',
      rendered_content: '<p>beep</p>',
      timestamp: 1,
      client: 'test',
      flags: { [id('othello')]: [] },
      reactions: [],
      last_edit_timestamp: null,
    });
    const publish = vi.spyOn(t.server.world.events, 'publish');
    await t.as('iago').delete(`/users/${id('hamlet')}`, { actions: { delete_public_channel_messages: true } });
    expect(store.messages.get(botMessage.id)).toBeUndefined();
    const deletions = publish.mock.calls.filter(([, e]) => e.type === 'delete_message');
    expect(deletions[0]).toEqual([
      [id('othello')],
      {
        type: 'delete_message',
        message_type: 'stream',
        message_ids: [botMessage.id],
        stream_id: verona.stream_id,
        topic: 'bots',
      },
    ]);
    expect(deletions.length).toBeGreaterThan(1);
  });

  it('makes the uploads its deleted messages linked forget them, as any deletion does', async () => {
    const file = await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: Buffer.from('notes') }]);
    const sent = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'files', content: `[notes](${file.body.url})` });
    const attachment = () => t.server.world.store.attachments.find((a) => file.body.url.endsWith(a.path_id))!;
    expect(attachment().message_ids).toEqual([sent.body.id]);
    await t.as('iago').delete(`/users/${id('hamlet')}`, { actions: { delete_public_channel_messages: true } });
    expect(attachment().message_ids).toEqual([]);
  });
});
