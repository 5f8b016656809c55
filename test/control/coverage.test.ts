// GET / DELETE /__mock/coverage: per operation, the calls, statuses, error codes seen and never
// seen, parameters sent and never sent, and the scenarios that answered, counted independently
// of the journal's bound and per sandbox.
import { afterAll, beforeEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
beforeAll(async () => {
  // A journal of five entries: the counts must not depend on what it still holds.
  t = await startTestServer({ journalEntries: 5 });
  control = new ControlClient(t.base);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await control.coverage.reset('*');
  await control.reset();
});

const op = (report: Awaited<ReturnType<ControlClient['coverage']['get']>>, id: string) =>
  report.operations.find((o) => o.operation === id)!;

describe('GET /__mock/coverage', () => {
  it('counts calls, statuses, error codes and parameters after the journal dropped them', async () => {
    const hamlet = t.as('hamlet');
    for (let i = 0; i < 3; i++)
      expect(
        (await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 't', content: `hi ${i}` })).status,
      ).toBe(200);
    expect((await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 't' })).body.code).toBe(
      'REQUEST_VARIABLE_MISSING',
    );
    expect(
      (
        await t
          .as('hamlet', { 'X-Mock-Scenario': 'stream-wildcard-mention-not-allowed' })
          .post('/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'x' })
      ).status,
    ).toBe(400);
    for (let i = 0; i < 6; i++) await hamlet.get('/users/me');
    // The journal holds only the newest five requests now.
    expect((await control.journal.list({ operation: 'send-message' })).count).toBe(0);

    const report = await control.coverage.get();
    const send = op(report, 'send-message');
    expect(send).toMatchObject({
      method: 'POST',
      path: '/messages',
      resource: 'messages',
      calls: 5,
      statuses: { 200: 3, 400: 2 },
      error_codes: { REQUEST_VARIABLE_MISSING: 1, STREAM_WILDCARD_MENTION_NOT_ALLOWED: 1 },
      scenarios: { 'stream-wildcard-mention-not-allowed': 1 },
    });
    expect(send.params_used).toEqual(['type', 'to', 'content', 'topic']);
    expect(send.params_unused).toContain('queue_id');
    expect(send.params_unused).not.toContain('topic');
    expect(send.documented_error_codes).toContain('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    expect(send.unseen_error_codes).not.toContain('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    expect(send.unseen_error_codes).not.toContain('REQUEST_VARIABLE_MISSING');
    expect(send.unseen_error_codes).toContain('TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
    expect(op(report, 'get-own-user')).toMatchObject({ calls: 6, statuses: { 200: 6 }, error_codes: {} });
    expect(op(report, 'get-subscriptions')).toMatchObject({ calls: 0, statuses: {}, params_used: [] });
    expect(report.totals.requests).toBe(11);
    expect(report.totals.operations_called).toBe(2);
    expect(report.totals.operations_described).toBe(report.operations.length);
    expect(report.totals.error_codes_seen).toBeGreaterThanOrEqual(2);
  });

  it('keeps sandboxes apart, and reports them together with sandbox=*', async () => {
    await t.as('hamlet').get('/users/me');
    await t.as('hamlet', { 'X-Mock-Sandbox': 'cov-a' }).get('/users/me');
    await t.as('hamlet', { 'X-Mock-Sandbox': 'cov-a' }).get('/users/me');
    expect(op(await control.coverage.get(), 'get-own-user').calls).toBe(1);
    expect(op(await control.sandbox('cov-a').coverage.get(), 'get-own-user').calls).toBe(2);
    expect(op(await control.coverage.get('*'), 'get-own-user').calls).toBe(3);
    await control.sandbox('cov-a').coverage.reset();
    expect(op(await control.coverage.get('*'), 'get-own-user').calls).toBe(1);
  });

  it('survives a reset of the state, and DELETE starts counting anew', async () => {
    await t.as('hamlet').get('/users/me');
    await control.reset();
    expect(op(await control.coverage.get(), 'get-own-user').calls).toBe(1);
    const r = await fetch(`${t.base}/__mock/coverage`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await r.json()).toEqual({ result: 'success', msg: '' });
    expect((await control.coverage.get()).totals.requests).toBe(0);
  });

  it('lists only the operations of the sandbox feature level', async () => {
    await fetch(`${t.base}/__mock/feature-level`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ level: 160 }),
    });
    try {
      const report = await control.coverage.get();
      expect(report.zulip_feature_level).toBe(160);
      expect(report.operations.map((o) => o.operation)).not.toContain('update-user-topic');
    } finally {
      await fetch(`${t.base}/__mock/feature-level`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ level: null }),
      });
    }
  });
});
