// GET /users/me/subscriptions: the caller's subscriptions with every field of spec 2.8, the
// include_subscribers modes (true, false, partial) and the fields derived from messages.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { groupId, streamId } from '../helpers/fixture-rows.js';
import { subscriptionOf } from '../helpers/read-back.js';
import { subscriptionKey } from '../../src/store/store.js';
import type { Message, User } from '../../src/store/state.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const DAY = 86_400;
const id = (who: string) => t.user(who).user_id;
const store = () => t.server.world.store;

/** Adds `count` users subscribed to the channel; `recentEvery`-th ones were active an hour ago, every `botEvery`-th is a bot. */
function addSubscribers(stream: number, count: number, now: number): { bots: number[]; recent: number[] } {
  const s = store();
  const template = t.user('othello');
  const bots: number[] = [];
  const recent: number[] = [];
  for (let i = 0; i < count; i++) {
    const userId = s.nextId('users');
    const isBot = i % 10 === 0;
    const isRecent = i % 3 === 0;
    const user: User = {
      ...structuredClone(template),
      user_id: userId,
      email: `extra${i}@zulip.com`,
      delivery_email: `extra${i}@zulip.com`,
      full_name: `Extra ${i}`,
      is_bot: isBot,
      bot_type: isBot ? 1 : null,
      bot_owner_id: isBot ? id('iago') : null,
      last_active: isRecent ? now - 3600 : now - 30 * DAY,
    };
    s.users.insert(user);
    s.subscriptions.insert({ ...s.subscriptions.get(subscriptionKey(id('othello'), stream))!, user_id: userId });
    if (isBot) bots.push(userId);
    if (isRecent && !isBot) recent.push(userId);
  }
  return { bots, recent };
}

function addMessage(stream: number, timestamp: number, topic = 'news'): Message {
  const m: Message = {
    id: store().nextId('messages'),
    sender_id: id('hamlet'),
    type: 'stream',
    stream_id: stream,
    topic,
    recipient_ids: [],
    content: 'hi',
    rendered_content: '<p>hi</p>',
    timestamp,
    client: 'test',
    flags: {},
    reactions: [],
    last_edit_timestamp: null,
  };
  return store().messages.insert(m);
}

describe('GET /users/me/subscriptions', () => {
  it("lists exactly the caller's subscriptions, sorted by name, without subscriber lists by default", async () => {
    const res = await t.as('hamlet').get('/users/me/subscriptions');
    expect(res.status).toBe(200);
    // Archived channels are left out (the real server lists active channels only).
    const ids = store()
      .subscriptions.filter((s) => s.user_id === id('hamlet') && !store().streams.get(s.stream_id)!.is_archived)
      .map((s) => s.stream_id);
    expect(res.body.subscriptions.map((s: any) => s.stream_id).sort()).toEqual(ids.sort());
    const names = res.body.subscriptions.map((s: any) => s.name);
    expect(names).toEqual([...names].sort());
    for (const sub of res.body.subscriptions) {
      expect(sub).not.toHaveProperty('subscribers');
      expect(sub).not.toHaveProperty('partial_subscribers');
    }
    const polonius = await t.as('polonius').get('/users/me/subscriptions', { include_subscribers: false });
    expect(polonius.body.subscriptions.map((s: any) => s.stream_id).sort()).toEqual(
      store()
        .subscriptions.filter((s) => s.user_id === id('polonius'))
        .map((s) => s.stream_id)
        .sort(),
    );
  });

  it('fills in every field of the subscription table, leaving unset notification settings null', async () => {
    const verona = await subscriptionOf(t.as('hamlet'), streamId(t, 'Verona'));
    for (const field of [
      'stream_id',
      'name',
      'description',
      'rendered_description',
      'date_created',
      'creator_id',
      'invite_only',
      'desktop_notifications',
      'email_notifications',
      'wildcard_mentions_notify',
      'push_notifications',
      'audible_notifications',
      'pin_to_top',
      'is_muted',
      'in_home_view',
      'is_announcement_only',
      'is_web_public',
      'color',
      'stream_post_policy',
      'message_retention_days',
      'history_public_to_subscribers',
      'first_message_id',
      'folder_id',
      'topics_policy',
      'is_recently_active',
      'stream_weekly_traffic',
      'can_add_subscribers_group',
      'can_remove_subscribers_group',
      'can_administer_channel_group',
      'can_delete_any_message_group',
    ]) {
      expect(verona).toHaveProperty(field);
    }
    expect(verona).toMatchObject({
      desktop_notifications: null,
      email_notifications: null,
      push_notifications: null,
      pin_to_top: true,
    });
    const denmark = await subscriptionOf(t.as('hamlet'), streamId(t, 'Denmark'));
    expect(denmark).toMatchObject({
      desktop_notifications: true,
      email_notifications: false,
      push_notifications: true,
      audible_notifications: false,
    });
  });

  it('derives the legacy posting policy from can_send_message_group', async () => {
    expect(await subscriptionOf(t.as('hamlet'), streamId(t, 'Venice'))).toMatchObject({
      can_send_message_group: groupId(t, 'role:administrators'),
      stream_post_policy: 2,
      is_announcement_only: true,
    });
    expect(await subscriptionOf(t.as('hamlet'), streamId(t, 'Denmark'))).toMatchObject({
      stream_post_policy: 1,
      is_announcement_only: false,
    });
  });

  it('leaves deactivated users out of group settings and subscriber lists', async () => {
    const rome = store().streams.get(streamId(t, 'Rome'))!;
    store().streams.update(rome, {
      can_administer_channel_group: { direct_members: [id('hamlet'), id('ariel')], direct_subgroups: [] },
    });
    store().subscriptions.insert({
      ...store().subscriptions.get(subscriptionKey(id('hamlet'), rome.stream_id))!,
      user_id: id('ariel'),
    });
    const sub = await subscriptionOf(t.as('hamlet'), rome.stream_id, { include_subscribers: true });
    expect(sub.can_administer_channel_group).toEqual({ direct_members: [id('hamlet')], direct_subgroups: [] });
    expect(sub.subscribers).not.toContain(id('ariel'));
    expect(sub.subscriber_count).toBe(sub.subscribers.length);
  });

  it('include_subscribers=true lists every active subscriber', async () => {
    const denmark = streamId(t, 'Denmark');
    const sub = await subscriptionOf(t.as('hamlet'), denmark, { include_subscribers: true });
    const expected = store()
      .subscriptions.filter((s) => s.stream_id === denmark)
      .map((s) => s.user_id);
    expect([...sub.subscribers].sort()).toEqual(expected.sort());
  });

  it('include_subscribers=partial gives the full list below 250 subscribers', async () => {
    const sub = await subscriptionOf(t.as('hamlet'), streamId(t, 'Denmark'), { include_subscribers: 'partial' });
    expect(sub.subscribers.length).toBeGreaterThan(0);
    expect(sub).not.toHaveProperty('partial_subscribers');
  });

  it('include_subscribers=partial gives bots and recently active users from 250 subscribers on', async () => {
    t.server.clock.freeze();
    const now = t.server.clock.now();
    const denmark = streamId(t, 'Denmark');
    const before = store()
      .subscriptions.filter((s) => s.stream_id === denmark)
      .map((s) => s.user_id);
    const { bots, recent } = addSubscribers(denmark, 250 - before.length, now);

    const partial = await subscriptionOf(t.as('hamlet'), denmark, { include_subscribers: 'partial' });
    expect(partial).not.toHaveProperty('subscribers');
    const fixtureRecentOrBots = before.filter((uid) => {
      const u = store().users.get(uid)!;
      return u.is_bot || u.last_active >= now - 14 * DAY;
    });
    expect([...partial.partial_subscribers].sort()).toEqual([...fixtureRecentOrBots, ...bots, ...recent].sort());
    expect(partial.subscriber_count).toBe(250);

    const full = await subscriptionOf(t.as('hamlet'), denmark, { include_subscribers: true });
    expect(full.subscribers).toHaveLength(250);
    expect(full).not.toHaveProperty('partial_subscribers');
  });

  it('derives first_message_id, stream_weekly_traffic and is_recently_active from the messages', async () => {
    t.server.clock.freeze();
    const now = t.server.clock.now();
    const created = await t.as('hamlet').post('/channels/create', { name: 'Busy', subscribers: [id('hamlet')] });
    const busy = store().streams.get(created.body.id)!;
    let sub = await subscriptionOf(t.as('hamlet'), busy.stream_id);
    expect(sub).toMatchObject({ first_message_id: null, stream_weekly_traffic: null, is_recently_active: true });

    // Old enough for a traffic figure: 8 messages in the last 28 days make 2 a week.
    store().streams.update(busy, { date_created: now - 60 * DAY });
    const first = addMessage(busy.stream_id, now - 40 * DAY);
    for (let i = 0; i < 8; i++) addMessage(busy.stream_id, now - i * DAY);
    sub = await subscriptionOf(t.as('hamlet'), busy.stream_id);
    expect(sub).toMatchObject({ first_message_id: first.id, stream_weekly_traffic: 2, is_recently_active: true });

    // Neither created nor written to in the last 180 days: not recently active.
    store().streams.update(busy, { date_created: now - 400 * DAY });
    store().messages.removeWhere((m) => m.stream_id === busy.stream_id && m.id !== first.id);
    store().messages.update(first, { timestamp: now - 200 * DAY });
    sub = await subscriptionOf(t.as('hamlet'), busy.stream_id);
    expect(sub).toMatchObject({ first_message_id: first.id, stream_weekly_traffic: 0, is_recently_active: false });
  });

  it('rejects an include_subscribers value that is not true, false or partial', async () => {
    const res = await t.as('hamlet').get('/users/me/subscriptions', { include_subscribers: 'some' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
  });
});
