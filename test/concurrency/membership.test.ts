// Concurrent changes of group membership and of channel subscriptions end in a consistent state:
// the same change sent by many clients at once happens exactly once, and interleaved chains of
// joins and leaves by many users end where each chain says, as seen by every way of reading it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { subscriptionKey } from '../../src/store/store.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const byNumber = (a: number, b: number) => a - b;

/** Runs each user's chain of steps in order, all chains at the same time. */
async function chains<T>(
  users: T[],
  length: (u: T, i: number) => number,
  step: (u: T, n: number) => Promise<void>,
): Promise<void> {
  await Promise.all(
    users.map(async (u, i) => {
      for (let n = 0; n < length(u, i); n++) await step(u, n);
    }),
  );
}

describe('group membership under concurrent changes', () => {
  // A deactivated group (FL 391 lets its members change), listed only with include_deactivated_groups.
  const group = () => t.server.world.store.userGroups.find((g) => g.name === 'support')!;

  // In the fixture only owners hold can_manage_all_groups, so every client acts as Desdemona.
  it('adds a user exactly once when 30 clients add them at the same time', async () => {
    const hamlet = t.user('hamlet').user_id;
    const results = await Promise.all(
      Array.from({ length: 30 }, () => t.as('desdemona').post(`/user_groups/${group().id}/members`, { add: [hamlet] })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.body).toMatchObject({ code: 'BAD_REQUEST', msg: `User ${hamlet} is already a member of this group` });
    }
    expect(group().direct_members.filter((id) => id === hamlet)).toHaveLength(1);
  });

  it("ends where each user's interleaved chain of adds and removes says", async () => {
    const users = ['othello', 'cordelia', 'prospero', 'shiva', 'iago', 'desdemona', 'iago-bot', 'hamlet-bot'].map(
      (u) => t.user(u).user_id,
    );
    const before = new Set(group().direct_members);
    const steps = (_u: number, i: number) => 3 + (i % 4); // 3..6 changes each
    await chains(users, steps, async (u, n) => {
      const joining = before.has(u) ? n % 2 === 1 : n % 2 === 0;
      const r = await t
        .as('desdemona')
        .post(`/user_groups/${group().id}/members`, joining ? { add: [u] } : { delete: [u] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    });
    const expected = new Set(before);
    users.forEach((u, i) => {
      if (steps(u, i) % 2 === 1) {
        if (before.has(u)) expected.delete(u);
        else expected.add(u);
      }
    });

    const members = group().direct_members;
    expect(new Set(members).size).toBe(members.length);
    expect([...members].sort(byNumber)).toEqual([...expected].sort(byNumber));
    const listed = (
      await t.as('hamlet').get('/user_groups', { include_deactivated_groups: true })
    ).body.user_groups.find((g: any) => g.id === group().id);
    expect([...listed.members].sort(byNumber)).toEqual([...expected].sort(byNumber));
    for (const u of [...users, t.user('hamlet').user_id, t.user('aaron').user_id]) {
      const r = await t.as('hamlet').get(`/user_groups/${group().id}/members/${u}`, { direct_member_only: true });
      expect(r.body.is_user_group_member, `user ${u}`).toBe(expected.has(u));
    }
  });
});

describe('subscriptions under concurrent changes', () => {
  const rome = () => t.server.world.store.streams.by('name', 'rome')!;
  const subscribed = (who: string) =>
    t.server.world.store.subscriptions.has(subscriptionKey(t.user(who).user_id, rome().stream_id));

  it('subscribes a user once when 30 requests to subscribe them arrive at once', async () => {
    expect(subscribed('othello')).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'Rome' }] }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => Object.keys(r.body.subscribed).length === 1)).toHaveLength(1);
    expect(
      t.server.world.store.subscriptions.filter(
        (s) => s.user_id === t.user('othello').user_id && s.stream_id === rome().stream_id,
      ),
    ).toHaveLength(1);
  });

  it("ends where each user's interleaved chain of subscribes and unsubscribes says, by every reading", async () => {
    const users = [
      'hamlet',
      'othello',
      'cordelia',
      'prospero',
      'aaron',
      'shiva',
      'desdemona',
      'iago-bot',
      'hamlet-bot',
    ];
    const before = new Map(users.map((u) => [u, subscribed(u)]));
    const steps = (_u: string, i: number) => 2 + (i % 5); // 2..6 changes each
    await chains(users, steps, async (u, n) => {
      const joining = before.get(u) ? n % 2 === 1 : n % 2 === 0;
      const r = joining
        ? await t.as(u).post('/users/me/subscriptions', { subscriptions: [{ name: 'Rome' }] })
        : await t.as(u).delete('/users/me/subscriptions', { subscriptions: ['Rome'] });
      expect(r.status, `${u} ${JSON.stringify(r.body)}`).toBe(200);
    });
    const expected = new Map(users.map((u, i) => [u, before.get(u) !== (steps(u, i) % 2 === 1)]));

    const rows = t.server.world.store.subscriptions.filter((s) => s.stream_id === rome().stream_id);
    expect(new Set(rows.map((s) => s.user_id)).size).toBe(rows.length);
    for (const u of users) {
      expect(subscribed(u), u).toBe(expected.get(u));
      const mine = (await t.as(u).get('/users/me/subscriptions')).body.subscriptions.map((s: any) => s.name);
      expect(mine.includes('Rome'), `${u} lists Rome`).toBe(expected.get(u));
    }
    // The channel's subscriber list, as a subscriber (iago never left) reads it, holds the same users.
    const seen = (
      await t.as('iago').get('/users/me/subscriptions', { include_subscribers: true })
    ).body.subscriptions.find((s: any) => s.name === 'Rome');
    expect([...seen.subscribers].sort(byNumber)).toEqual(rows.map((s) => s.user_id).sort(byNumber));
    for (const u of users) expect(seen.subscribers.includes(t.user(u).user_id), u).toBe(expected.get(u));
  });
});
