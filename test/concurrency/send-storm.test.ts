// 50 clients each send 200 messages at the same time (10,000 POST /messages in flight together):
// every acknowledged message is stored exactly once under its own ID, reads back through
// GET /messages/matches_narrow for its sender, and is in the request journal with that ID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CLIENTS = 50;
const PER_CLIENT = 200;
const SENDERS = ['hamlet', 'othello', 'cordelia', 'prospero', 'aaron', 'iago', 'desdemona', 'shiva'];

let t: TestServer;
beforeAll(async () => {
  // The journal keeps 5,000 requests by default: this test needs all 10,000 sends in it.
  t = await startTestServer({ journalEntries: 20_000 });
});
afterAll(() => t.close());

const content = (c: number, i: number) => `storm client ${c} message ${i}`;
const topic = (c: number) => `storm ${c}`;

describe('a storm of concurrent sends', () => {
  const acked: number[][] = Array.from({ length: CLIENTS }, () => []);

  it('acknowledges every one of 50 x 200 concurrent sends with its own ID', async () => {
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const client = t.as(SENDERS[c % SENDERS.length]);
        for (let i = 0; i < PER_CLIENT; i++) {
          const r = await client.post('/messages', {
            type: 'stream',
            to: 'Denmark',
            topic: topic(c),
            content: content(c, i),
          });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          acked[c].push(r.body.id);
        }
      }),
    );
    const all = acked.flat();
    expect(all).toHaveLength(CLIENTS * PER_CLIENT);
    expect(new Set(all).size).toBe(all.length);
    // One client's sends are answered in order, so its IDs grow.
    for (const ids of acked) expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  }, 180_000);

  it('stores each acknowledged message once, with its content, sender and topic', () => {
    const store = t.server.world.store;
    const stormed = store.messages.filter((m) => m.topic.startsWith('storm '));
    expect(stormed).toHaveLength(CLIENTS * PER_CLIENT);
    const byContent = new Map(stormed.map((m) => [m.content, m]));
    expect(byContent.size).toBe(stormed.length);
    for (let c = 0; c < CLIENTS; c++) {
      const sender = t.user(SENDERS[c % SENDERS.length]);
      acked[c].forEach((id, i) => {
        const m = store.messages.get(id);
        expect(m, `message ${id}`).toBeDefined();
        expect(m).toMatchObject({ content: content(c, i), topic: topic(c), sender_id: sender.user_id, stream_id: 1 });
      });
    }
  });

  it('reads every message back for its sender through matches_narrow', async () => {
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const narrow = [
          { operator: 'channel', operand: 'Denmark' },
          { operator: 'topic', operand: topic(c) },
        ];
        const r = await t
          .as(SENDERS[c % SENDERS.length])
          .get('/messages/matches_narrow', { msg_ids: acked[c], narrow });
        expect(r.status).toBe(200);
        expect(
          Object.keys(r.body.messages)
            .map(Number)
            .sort((a, b) => a - b),
        ).toEqual(acked[c]);
      }),
    );
  });

  it('has every acknowledged send in the journal, with the ID it answered', async () => {
    const r = await fetch(`${t.base}/__mock/journal?operation=send-message&limit=10000`);
    const page = await r.json();
    expect(r.status).toBe(200);
    expect(page.count).toBe(CLIENTS * PER_CLIENT);
    expect(page.entries.every((e: any) => e.status === 200 && e.code === null)).toBe(true);
    const journalled = page.entries.map((e: any) => e.response.id).sort((a: number, b: number) => a - b);
    expect(journalled).toEqual(acked.flat().sort((a, b) => a - b));
  });
});
