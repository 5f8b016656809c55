// The official JavaScript client against these endpoints: password login, users, channels,
// topics, subscribing and unsubscribing (its DELETE sends parameters in the query string),
// custom emoji and user creation; another user's queue sees the subscription changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { zulipAs, zulipLogin } from '../helpers/zulip-js.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('zulip-js on the client endpoints', () => {
  it('logs in with a password and drives users, channels, topics, subscriptions and emoji', async () => {
    const z = await zulipAs(t, 'othello', 'password');
    const othello = t.user('othello');

    const users = await z.users.retrieve();
    expect(users.result).toBe('success');
    expect(users.members.map((m: { user_id: number }) => m.user_id)).toContain(othello.user_id);

    const streams = await z.streams.retrieve();
    expect(streams.streams.map((s: { name: string }) => s.name)).toContain('Rome');
    const rome = await z.streams.getStreamId('Rome');
    expect(rome.result).toBe('success');
    const topics = await z.streams.topics.retrieve({ stream_id: rome.stream_id });
    expect(topics.topics).toEqual([{ max_id: 17, name: 'Colosseum' }]);

    const hamletQueue = await registerQueue(t, 'hamlet', ['subscription']);
    const added = await z.users.me.subscriptions.add({ subscriptions: JSON.stringify([{ name: 'Rome' }]) });
    expect(added).toMatchObject({ result: 'success', subscribed: { [String(othello.user_id)]: ['Rome'] } });
    const removed = await z.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['Rome']) });
    expect(removed).toMatchObject({ result: 'success', removed: ['Rome'], not_removed: [] });
    const events = await eventsOf(t, 'hamlet', hamletQueue);
    expect(events.map((e) => e.op)).toEqual(['peer_add', 'peer_remove']);

    const emoji = await z.emojis.retrieve();
    expect(emoji.emoji['1'].name).toBe('green_tick');
  });

  it('lets an administrator create a user, who can then log in', async () => {
    const iago = await zulipAs(t, 'iago', 'password');
    const created = await iago.users.create({
      email: 'juliet@zulip.com',
      password: 'capulet-secret',
      full_name: 'Juliet',
    });
    expect(created.result).toBe('success');
    const juliet = await zulipLogin(t.base, { email: 'juliet@zulip.com', password: 'capulet-secret' }, 'password');
    const me = await juliet.users.me.getProfile();
    expect(me).toMatchObject({ result: 'success', user_id: created.user_id, full_name: 'Juliet' });
  });
});
