// POST /messages/flags/narrow keeps the real server's bound on one request: num_before and
// num_after are clamped so that at most MAX_MESSAGES_PER_UPDATE (5000) messages around the
// anchor are processed, num_before keeping at least half when both are large; no error, unlike
// GET /messages, which refuses more than 5000 (tested in get-messages.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const ids: number[] = [];
const narrow = [
  { operator: 'channel', operand: 'Denmark' },
  { operator: 'topic', operand: 'many' },
];

beforeAll(async () => {
  t = await startTestServer();
  const s = t.server.world.store;
  const hamlet = t.user('hamlet').user_id;
  const base = s.messages.all().find((m) => m.type === 'stream')!;
  for (let i = 0; i < 6001; i++) {
    const id = s.nextId('messages');
    s.messages.insert({
      ...base,
      id,
      stream_id: base.stream_id,
      topic: 'many',
      content: `m${i}`,
      rendered_content: `<p>m${i}</p>`,
      flags: { [hamlet]: [] },
      reactions: [],
    });
    ids.push(id);
  }
  expect(s.streams.get(base.stream_id!)!.name).toBe('Denmark');
});
afterAll(async () => {
  await t.close();
});

const byNarrow = (params: Record<string, unknown>) =>
  t
    .as('hamlet')
    .post('/messages/flags/narrow', { include_anchor: true, narrow, op: 'add', flag: 'starred', ...params });

describe('POST /messages/flags/narrow limits', () => {
  it('processes at most 5000 messages after the anchor', async () => {
    const r = await byNarrow({ anchor: 'oldest', num_before: 0, num_after: 6000 });
    expect(r.body).toMatchObject({
      processed_count: 5000,
      updated_count: 5000,
      first_processed_id: ids[0],
      last_processed_id: ids[4999],
      found_newest: false,
    });
  });

  it('processes at most 5000 messages before the anchor', async () => {
    const r = await byNarrow({ anchor: 'newest', num_before: 6000, num_after: 0, op: 'remove' });
    expect(r.body).toMatchObject({
      processed_count: 5000,
      first_processed_id: ids[1001],
      last_processed_id: ids[6000],
      found_oldest: false,
    });
  });

  it('splits the bound evenly when both sides ask for more, the anchor besides', async () => {
    const anchor = ids[3000];
    const r = await byNarrow({ anchor: String(anchor), num_before: 4000, num_after: 4000 });
    expect(r.body).toMatchObject({
      processed_count: 5001,
      first_processed_id: ids[500],
      last_processed_id: ids[5500],
      found_oldest: false,
      found_newest: false,
    });
    // A small num_after leaves the rest of the bound to num_before.
    const small = await byNarrow({ anchor: String(anchor), num_before: 6000, num_after: 10 });
    expect(small.body).toMatchObject({
      processed_count: 3011,
      first_processed_id: ids[0],
      last_processed_id: ids[3010],
      found_oldest: true,
    });
  });
});
