// Behaviour by feature level: for each dated change, the level just below it and the level at it.
// The level comes from the X-Mock-Feature-Level header, the control API or --feature-level.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';
import { sharedContract } from '../../src/server.js';
import { behaviours } from '../../src/contract/behaviours.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
});

const at = (level: number, who = 'hamlet') => t.as(who, { 'X-Mock-Feature-Level': String(level) });

describe('choosing the level', () => {
  it('register and server_settings report the level, with a version that fits it', async () => {
    const s = await t.anonymous().call('GET', '/server_settings');
    expect(s.body.zulip_feature_level).toBe(t.server.server.featureLevel);
    const old = await fetch(`${t.base}/api/v1/server_settings`, { headers: { 'X-Mock-Feature-Level': '185' } }).then(
      (r) => r.json(),
    );
    expect(old).toMatchObject({ zulip_feature_level: 185, zulip_version: '7.0' });
    const between = await fetch(`${t.base}/api/v1/server_settings`, {
      headers: { 'X-Mock-Feature-Level': '200' },
    }).then((r) => r.json());
    expect(between.zulip_version).toBe('8.0-dev');
  });

  it('names 12.0 at its release level, the 12.x series after it, and 13.0-dev from 502', async () => {
    const version = async (level: number) =>
      (
        await fetch(`${t.base}/api/v1/server_settings`, { headers: { 'X-Mock-Feature-Level': String(level) } }).then(
          (r) => r.json(),
        )
      ).zulip_version;
    expect(await version(497)).toBe('12.0-dev');
    expect(await version(498)).toBe('12.0');
    expect(await version(500)).toBe('12.1');
    expect(await version(502)).toBe('13.0-dev');
    expect(await version(511)).toBe('13.0-dev');
  });

  it('the control API sets the level of a world until set back', async () => {
    const control = new ControlClient(t.base);
    expect(await control.setFeatureLevel(100)).toMatchObject({ zulip_feature_level: 100 });
    expect((await t.as('hamlet').post('/user_topics', { stream_id: 1, topic: 'x', visibility_policy: 1 })).status).toBe(
      404,
    );
    expect((await control.info()).zulip_feature_level).toBe(100);
    await control.setFeatureLevel(null);
    expect((await t.as('hamlet').post('/user_topics', { stream_id: 1, topic: 'x', visibility_policy: 1 })).status).toBe(
      200,
    );
  });

  it('--feature-level sets the server default', async () => {
    const old = await startTestServer({ featureLevel: 160 });
    try {
      const s = await old.anonymous().get('/server_settings');
      expect(s.body.zulip_feature_level).toBe(160);
      expect(
        (await old.as('hamlet').post('/user_topics', { stream_id: 1, topic: 'x', visibility_policy: 1 })).status,
      ).toBe(404);
    } finally {
      await old.close();
    }
  });

  it('refuses a malformed level header', async () => {
    const r = await t.as('hamlet', { 'X-Mock-Feature-Level': 'new' }).get('/users/me');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'Invalid X-Mock-Feature-Level: new', code: 'BAD_REQUEST' });
  });
});

describe('operations appear at the level the description gives them', () => {
  const ops = sharedContract().operations.filter((op) => op.addedAt > 0 || Number.isFinite(op.removedAt));
  it.each(ops.map((op) => [op.id, op]))('%s', async (_id, op) => {
    // An {email} must look like one: a number there is a user ID, another path's template.
    const path = op.path.replace(/\{email\}/g, 'hamlet@zulip.com').replace(/\{[^}]+\}/g, '1');
    const call = (level: number) => at(level, 'iago').call(op.method.toUpperCase(), path, {});
    // The route is absent: 404 "Not Found", or 405 when the path has other methods at that level.
    // It is present when the answer is neither (a 404 about a missing object still counts).
    const absent = (res: { status: number; body: any }) =>
      (res.status === 404 && res.body.msg === 'Not Found') ||
      (res.status === 405 && !res.body.allowed_methods.includes(op.method.toUpperCase()));
    if (op.addedAt > 0) {
      const below = await call(op.addedAt - 1);
      expect(absent(below), JSON.stringify(below.body)).toBe(true);
      if (below.status === 404) expect(below.body).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
      expect(absent(await call(op.addedAt))).toBe(false);
    }
    if (Number.isFinite(op.removedAt)) {
      expect((await call(op.removedAt - 1)).status).not.toBe(404);
      expect(absent(await call(op.removedAt))).toBe(true);
    }
  });
});

describe('dated changes', () => {
  it('FL 54: linkifiers as GET /realm/filters tuples before, GET /realm/linkifiers from it', async () => {
    const old = await at(53).get('/realm/filters');
    expect(old.status).toBe(200);
    expect(old.body.filters[0]).toEqual([expect.any(String), 'https://github.com/zulip/zulip/issues/%(id)s', 1]);
    expect((await at(53).get('/realm/linkifiers')).status).toBe(404);
    // The path still takes POST (adding a linkifier), so GET is the wrong method there.
    expect((await at(54).get('/realm/filters')).status).toBe(405);
    expect((await at(54).get('/realm/linkifiers')).status).toBe(200);
  });

  it('FL 176: url_format before, url_template from it', async () => {
    const [before] = (await at(175).get('/realm/linkifiers')).body.linkifiers;
    expect(before.url_format).toBe('https://github.com/zulip/zulip/issues/%(id)s');
    expect(before).not.toHaveProperty('url_template');
    const [after] = (await at(176).get('/realm/linkifiers')).body.linkifiers;
    expect(after.url_template).toBe('https://github.com/zulip/zulip/issues/{id}');
    expect(after).not.toHaveProperty('url_format');
  });

  it('FL 133 and 226: role and email_address in subscription objects before them', async () => {
    const subs = async (level: number) => (await at(level).get('/users/me/subscriptions')).body.subscriptions[0];
    expect(await subs(132)).toMatchObject({ role: 20, email_address: expect.stringMatching(/@/) });
    const s133 = await subs(133);
    expect(s133).not.toHaveProperty('role');
    expect(s133.email_address).toMatch(/@/);
    expect(await subs(225)).toHaveProperty('email_address');
    expect(await subs(226)).not.toHaveProperty('email_address');
  });

  it('FL 333: can_send_message_group appears in subscriptions', async () => {
    const subs = async (level: number) => (await at(level).get('/users/me/subscriptions')).body.subscriptions[0];
    const before = await subs(332);
    expect(before).not.toHaveProperty('can_send_message_group');
    expect(before).toHaveProperty('stream_post_policy');
    expect(await subs(333)).toHaveProperty('can_send_message_group');
  });

  it('FL 139: one subscription update event before, two from it', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const publish = t.server.world.events.publish.bind(t.server.world.events);
    t.server.world.events.publish = (ids, event, perQueue) => {
      if (event.type === 'subscription') seen.push(event);
      publish(ids, event, perQueue);
    };
    try {
      await at(138).patch('/users/me/subscriptions/1', { property: 'is_muted', value: true });
      expect(seen.map((e) => e.property)).toEqual(['is_muted']);
      seen.length = 0;
      await at(139).patch('/users/me/subscriptions/1', { property: 'is_muted', value: false });
      expect(seen.map((e) => e.property).sort()).toEqual(['in_home_view', 'is_muted']);
    } finally {
      t.server.world.events.publish = publish;
    }
  });

  it('FL 167: ignored_parameters_unsupported only from it', async () => {
    const before = await at(166).post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: 1, property: 'pin_to_top', value: true }],
      bogus: 1,
    });
    expect(before.body).toEqual({ result: 'success', msg: '' });
    const after = await at(167).post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: 1, property: 'pin_to_top', value: true }],
      bogus: 1,
    });
    expect(after.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['bogus'] });
  });

  it('FL 169: muting a muted topic (and unmuting an unmuted one) errors before it', async () => {
    const mute = (level: number, op: string) =>
      at(level).patch('/users/me/subscriptions/muted_topics', { stream_id: 1, topic: 'lvl', op });
    expect((await mute(168, 'add')).status).toBe(200);
    expect((await mute(168, 'add')).body).toEqual({ result: 'error', msg: 'Topic already muted', code: 'BAD_REQUEST' });
    expect((await mute(169, 'add')).status).toBe(200);
    expect((await mute(168, 'remove')).status).toBe(200);
    expect((await mute(168, 'remove')).body).toEqual({
      result: 'error',
      msg: 'Topic is not muted',
      code: 'BAD_REQUEST',
    });
    expect((await mute(169, 'remove')).status).toBe(200);
  });

  it('FL 303: deactivated users still count as group members before it', async () => {
    const store = t.server.world.store;
    const ariel = store.users.find((u) => !u.is_active && !u.is_bot)!;
    const group = store.userGroups.find((g) => !g.is_system_group && !g.deactivated)!;
    store.userGroups.update(group, { direct_members: [...group.direct_members, ariel.user_id] });
    const ask = async (level: number) =>
      (await at(level).get(`/user_groups/${group.id}/members/${ariel.user_id}`)).body.is_user_group_member;
    expect(await ask(302)).toBe(true);
    expect(await ask(303)).toBe(false);
  });

  it('FL 391: members of a deactivated group can be changed only from it', async () => {
    const store = t.server.world.store;
    const group = store.userGroups.find((g) => g.deactivated)!;
    store.userGroups.update(group, {
      can_manage_group: { direct_members: [t.user('hamlet').user_id], direct_subgroups: [] },
    });
    const add = (level: number) =>
      at(level).post(`/user_groups/${group.id}/members`, { add: [t.user('othello').user_id] });
    const before = await add(390);
    expect(before.body).toEqual({ result: 'error', msg: 'User group is deactivated.', code: 'BAD_REQUEST' });
    expect((await add(391)).status).toBe(200);
  });

  it('FL 458: bots can be asked about only from it', async () => {
    const bot = t.user('iago-bot');
    const group = t.server.world.store.userGroups.find((g) => g.name === 'role:members')!;
    expect((await at(457).get(`/user_groups/${group.id}/members/${bot.user_id}`)).body).toEqual({
      result: 'error',
      msg: 'No such user',
      code: 'BAD_REQUEST',
    });
    expect((await at(458).get(`/user_groups/${group.id}/members/${bot.user_id}`)).body.is_user_group_member).toBe(true);
  });

  it('FL 496: bots may change group members only from it', async () => {
    const store = t.server.world.store;
    const bot = t.user('iago-bot');
    const group = store.userGroups.find((g) => g.name === 'hamletcharacters')!;
    store.userGroups.update(group, { can_add_members_group: { direct_members: [bot.user_id], direct_subgroups: [] } });
    const add = (level: number) =>
      at(level, 'iago-bot').post(`/user_groups/${group.id}/members`, { add: [t.user('prospero').user_id] });
    expect((await add(495)).body).toEqual({
      result: 'error',
      msg: 'This endpoint does not accept bot requests.',
      code: 'BAD_REQUEST',
    });
    expect((await add(496)).status).toBe(200);
  });

  it('FL 468: push_account_id before, device_id from it', async () => {
    const before = await at(467).post('/mobile_push/e2ee/test_notification', { device_id: 1 });
    expect(before.body.ignored_parameters_unsupported).toEqual(['device_id']);
    const after = await at(468).post('/mobile_push/e2ee/test_notification', { push_account_id: 1 });
    expect(after.body.ignored_parameters_unsupported).toEqual(['push_account_id']);
  });
});

describe('the behaviours table', () => {
  it('has a level and a description for every row', () => {
    for (const [key, row] of Object.entries(behaviours())) {
      expect(Number.isInteger(row.level), key).toBe(true);
      expect(row.description.length, key).toBeGreaterThan(10);
      // Backported levels are ranges below the level the development branch made the change at.
      for (const [first, last] of row.backported ?? []) expect(first <= last && last < row.level, key).toBe(true);
    }
  });
});

describe('settings before the merge (FL 78 and 80)', () => {
  it('PATCH /settings exists from 80; the old endpoints work at every level', async () => {
    expect((await at(79).patch('/settings', { twenty_four_hour_time: true })).status).toBe(404);
    expect((await at(80).patch('/settings', { twenty_four_hour_time: true })).status).toBe(200);
    expect((await at(79).patch('/settings/display', { twenty_four_hour_time: true })).status).toBe(200);
    expect((await at(79).patch('/settings/notifications', { enable_sounds: false })).status).toBe(200);
  });

  it('settings endpoints list unsupported parameters from 78, before every other endpoint (167)', async () => {
    expect((await at(77).patch('/settings/display', { twenty_four_hour_time: true, bogus: 1 })).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect((await at(78).patch('/settings/display', { twenty_four_hour_time: true, bogus: 1 })).body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['bogus'],
    });
    const other = await at(78).post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: 1, property: 'pin_to_top', value: true }],
      bogus: 1,
    });
    expect(other.body).toEqual({ result: 'success', msg: '' });
  });
});

describe('dated changes of messaging', () => {
  const send = (level: number, params: Record<string, unknown>, who = 'hamlet') =>
    at(level, who).post('/messages', { type: 'stream', to: 'Verona', topic: 'levels', content: 'hi', ...params });

  it('FL 174 and 248: the direct and channel message types', async () => {
    const dm = { type: 'direct', to: [t.user('othello').user_id] };
    expect((await send(173, dm)).body).toEqual({ result: 'error', msg: 'Invalid type', code: 'BAD_REQUEST' });
    expect((await send(174, dm)).status).toBe(200);
    expect((await send(247, { type: 'channel' })).body).toEqual({
      result: 'error',
      msg: 'Invalid type',
      code: 'BAD_REQUEST',
    });
    expect((await send(248, { type: 'channel' })).status).toBe(200);
    expect((await send(173, { type: 'private', to: [t.user('othello').user_id] })).status).toBe(200);
  });

  it('FL 215: typing events about direct messages say "direct"; before, "private"', async () => {
    const othello = t.user('othello');
    for (const [level, name] of [
      [214, 'private'],
      [215, 'direct'],
    ] as const) {
      const q = await registerQueue(t, 'othello', ['typing']);
      expect((await at(level).post('/typing', { op: 'start', to: [othello.user_id] })).status).toBe(200);
      expect((await eventsOf(t, 'othello', q)).map((e) => e.message_type)).toEqual([name]);
    }
  });

  it('FL 229: wildcard mentions without permission were BAD_REQUEST before it', async () => {
    t.server.world.store.updateRealm({ wildcard_mention_large_threshold: 1 });
    const before = await send(228, { content: 'hello @**all**' });
    expect(before.status).toBe(400);
    expect(before.body.code).toBe('BAD_REQUEST');
    const after = await send(229, { content: 'hello @**all**' });
    expect(after.body.code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    expect(after.body.msg).toBe(before.body.msg);
  });

  it('FL 334: the empty topic is refused before it', async () => {
    const before = await send(333, { topic: '' });
    expect(before.status).toBe(400);
    expect(before.body.code).toBe('BAD_REQUEST');
    const after = await send(334, { topic: '' });
    expect(after.status).toBe(200);
    expect(t.server.world.store.messages.get(after.body.id)!.topic).toBe('');
  });

  it('FL 370: "(no topic)" is a literal topic name before it, the empty topic from it', async () => {
    const before = await send(369, { topic: '(no topic)' });
    expect(t.server.world.store.messages.get(before.body.id)!.topic).toBe('(no topic)');
    const after = await send(370, { topic: '(no topic)' });
    expect(t.server.world.store.messages.get(after.body.id)!.topic).toBe('');
  });

  it('FL 179 and 184: scheduled messages appear at 179; scheduled_message_id edits only before 184', async () => {
    const later = Math.floor(Date.now() / 1000) + 3600;
    const params = { type: 'stream', to: 1, topic: 'plan', content: 'first', scheduled_delivery_timestamp: later };
    // GET /scheduled_messages exists from 173, so the path answers 405 to POST before 179.
    expect((await at(178).post('/scheduled_messages', params)).status).toBe(405);
    const created = await at(179).post('/scheduled_messages', params);
    expect(created.status).toBe(200);
    const id = created.body.scheduled_message_id;
    const edited = await at(183).post('/scheduled_messages', {
      ...params,
      content: 'edited',
      scheduled_message_id: id,
    });
    expect(edited.body).toEqual({ result: 'success', msg: '', scheduled_message_id: id });
    expect(t.server.world.store.scheduledMessages.get(id)!.content).toBe('edited');
    const fresh = await at(184).post('/scheduled_messages', { ...params, content: 'new', scheduled_message_id: id });
    expect(fresh.body.scheduled_message_id).not.toBe(id);
    expect(fresh.body.ignored_parameters_unsupported).toEqual(['scheduled_message_id']);
  });

  it('FL 361: POST /message_edit_typing with message_id before it, POST /messages/{id}/typing from it', async () => {
    const mine = t.server.world.store.messages.find(
      (m) => m.sender_id === t.user('hamlet').user_id && m.type === 'stream',
    )!;
    t.server.clock.set(mine.timestamp * 1000 + 1000);
    try {
      expect((await at(360).post('/message_edit_typing', { message_id: mine.id, op: 'start' })).status).toBe(200);
      expect((await at(360).post(`/messages/${mine.id}/typing`, { op: 'start' })).status).toBe(404);
      expect((await at(361).post('/message_edit_typing', { message_id: mine.id, op: 'start' })).status).toBe(404);
      expect((await at(361).post(`/messages/${mine.id}/typing`, { op: 'start' })).status).toBe(200);
      expect((await at(350).post('/message_edit_typing', { message_id: mine.id, op: 'start' })).status).toBe(404);
    } finally {
      t.server.clock.reset();
    }
  });

  it('FL 435: register reports server_report_message_types from it', async () => {
    const reg = async (level: number) => (await at(level).post('/register', { event_types: ['message'] })).body;
    expect(await reg(434)).not.toHaveProperty('server_report_message_types');
    expect((await reg(435)).server_report_message_types).toContainEqual({ key: 'spam', name: 'Spam' });
  });
});
