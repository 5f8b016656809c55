// The HTTP pipeline itself, with stand-in views so that it is tested apart from the domain:
// routing (404, 405), authentication, decoding from every place a client puts parameters,
// the success envelope with ignored_parameters_unsupported, and failure handling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, basicAuth, type TestServer } from '../helpers/server.js';
import { ApiError } from '../../src/errors.js';
import { requireAdmin } from '../../src/domain/users/roles.js';
import type { ViewTable } from '../../src/domain/context.js';
import { takeViolations } from '../setup/contract-guard.js';

const logged: string[] = [];
const echo: Record<string, unknown>[] = [];
const views: ViewTable = {
  'get-linkifiers': () => ({ linkifiers: [] }),
  'update-user-topic': (_ctx, params) => {
    echo.push(params);
  },
  'update-settings': (_ctx, params) => {
    echo.push(params);
  },
  'deactivate-user': (ctx) => {
    requireAdmin(ctx.actor);
  },
  'get-own-user': () => {
    throw new Error('boom');
  },
  'create-saved-snippet': () => ({ saved_snippet_id: 'not-a-number' }),
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ views: { authenticated: views, open: {} }, log: (l) => logged.push(l) });
});
afterAll(async () => {
  await t.close();
});

describe('routing', () => {
  it('answers an unknown path with a 404 envelope', async () => {
    const r = await t.as('hamlet').get('/no/such/thing');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  it('answers a known path with the wrong method with 405, allowed_methods and Allow, but no code (as the real server)', async () => {
    const r = await t.as('hamlet').call('PUT', '/user_topics');
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] });
    expect(r.headers.get('allow')).toBe('POST');
    const journal = await (await fetch(`${t.base}/__mock/journal?status=405&limit=1`)).json();
    expect(journal.entries[0]).toMatchObject({ status: 405, code: null, problems: [] });
  });

  it('does not match a non-numeric ID in an integer path segment', async () => {
    const r = await t.as('hamlet').post('/messages/abc/report', { report_type: 'spam' });
    expect(r.status).toBe(404);
  });

  it('answers outside /api/v1 with the same envelope', async () => {
    const r = await fetch(`${t.base}/elsewhere`);
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });
});

describe('authentication', () => {
  it('refuses a request without credentials with 401 and WWW-Authenticate', async () => {
    const r = await t.anonymous().get('/realm/linkifiers');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Not logged in: API authentication or user session required',
      code: 'UNAUTHORIZED',
    });
  });

  it('refuses a wrong API key and an unknown email with Invalid API key', async () => {
    const hamlet = t.user('hamlet');
    for (const auth of [basicAuth(hamlet.email, 'x'.repeat(32)), basicAuth('nobody@zulip.com', hamlet.api_key)]) {
      const res = await fetch(`${t.base}/api/v1/realm/linkifiers`, { headers: { authorization: auth } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
      expect(await res.json()).toEqual({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
    }
  });

  it('accepts the email in any case', async () => {
    const hamlet = t.user('hamlet');
    const res = await fetch(`${t.base}/api/v1/realm/linkifiers`, {
      headers: { authorization: basicAuth('HAMLET@zulip.com', hamlet.api_key) },
    });
    expect(res.status).toBe(200);
  });

  it('refuses a deactivated account as the real API-key path does: UNAUTHORIZED with the message and WWW-Authenticate', async () => {
    const ariel = t.server.world.store.users.find((u) => !u.is_active && !u.is_bot)!;
    const res = await fetch(`${t.base}/api/v1/realm/linkifiers`, {
      headers: { authorization: basicAuth(ariel.email, ariel.api_key) },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    expect(await res.json()).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' });
  });

  it('refuses a non-administrator on an administrator-only operation', async () => {
    const r = await t.as('hamlet').delete(`/users/${t.user('othello').user_id}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    expect((await t.as('iago').delete(`/users/${t.user('othello').user_id}`)).status).toBe(200);
  });

  it('checks credentials before parameters', async () => {
    const r = await t.anonymous().post('/user_topics', {});
    expect(r.status).toBe(401);
  });
});

describe('decoding', () => {
  it('reads form-encoded bodies, with types from the description', async () => {
    echo.length = 0;
    const r = await t.as('hamlet').post('/user_topics', { stream_id: 3, topic: 'lunch', visibility_policy: 1 });
    expect(r.status).toBe(200);
    expect(echo[0]).toEqual({ stream_id: 3, topic: 'lunch', visibility_policy: 1 });
  });

  it('reads multipart bodies as the official JavaScript client sends them', async () => {
    echo.length = 0;
    const form = new FormData();
    form.append('stream_id', '3');
    form.append('topic', 'lunch');
    form.append('visibility_policy', '2');
    const res = await fetch(`${t.base}/api/v1/user_topics`, {
      method: 'POST',
      body: form,
      headers: { authorization: basicAuth(t.user('hamlet').email, t.user('hamlet').api_key) },
    });
    expect(res.status).toBe(200);
    expect(echo[0]).toEqual({ stream_id: 3, topic: 'lunch', visibility_policy: 2 });
  });

  it('reads PATCH parameters from the query string, and prefers the body when both have a key', async () => {
    echo.length = 0;
    const inQuery = await t
      .as('hamlet')
      .call('PATCH', '/settings', { twenty_four_hour_time: true, color_scheme: 2 }, { in: 'query' });
    expect(inQuery.status).toBe(200);
    expect(echo[0]).toMatchObject({ twenty_four_hour_time: true, color_scheme: 2 });
    const res = await fetch(`${t.base}/api/v1/settings?color_scheme=3`, {
      method: 'PATCH',
      body: new URLSearchParams({ color_scheme: '1' }),
      headers: {
        authorization: basicAuth(t.user('hamlet').email, t.user('hamlet').api_key),
        'content-type': 'application/x-www-form-urlencoded',
      },
    });
    expect(res.status).toBe(200);
    expect(echo[1]).toMatchObject({ color_scheme: 1 });
  });

  it('parses JSON fields and reports nested problems by path', async () => {
    const bad = await t.as('iago').patch('/settings', { target_users: { user_ids: ['x'] } });
    expect(bad.body).toEqual({
      result: 'error',
      msg: 'target_users["user_ids"][0] is not an integer',
      code: 'BAD_REQUEST',
    });
  });

  it('reports the first missing parameter with var_name', async () => {
    const r = await t.as('hamlet').post('/user_topics', { stream_id: 3 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      msg: "Missing 'topic' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'topic',
    });
  });

  it.each([
    ['POST', '/user_topics', { stream_id: 'abc', topic: 't', visibility_policy: 1 }, 'stream_id is not an integer'],
    [
      'POST',
      '/scheduled_messages',
      { type: 'stream', to: '{oops', content: 'c', topic: 't', scheduled_delivery_timestamp: 1 },
      'to is not valid JSON',
    ],
    ['PATCH', '/users/me/subscriptions/muted_topics', { stream_id: 1, topic: 't', op: 'toggle' }, 'Invalid op'],
    ['POST', '/channels/create', { name: 'new', subscribers: 5 }, 'subscribers is not a list'],
    ['POST', '/channels/create', { name: 'new', subscribers: ['a'] }, 'subscribers[0] is not an integer'],
    ['POST', '/users/me/status', { status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    ['GET', '/users/me/subscriptions', { include_subscribers: 'sometimes' }, 'Invalid include_subscribers'],
  ])('%s %s refuses a bad value: %s', async (method, path, params, msg) => {
    const r = await t.as('hamlet').call(method, path, params as Record<string, unknown>);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('takes the last value of a repeated key, like the real server', async () => {
    echo.length = 0;
    const res = await fetch(`${t.base}/api/v1/user_topics`, {
      method: 'POST',
      body: 'stream_id=1&stream_id=3&topic=a&visibility_policy=0',
      headers: {
        authorization: basicAuth(t.user('hamlet').email, t.user('hamlet').api_key),
        'content-type': 'application/x-www-form-urlencoded',
      },
    });
    expect(res.status).toBe(200);
    expect(echo[0]).toMatchObject({ stream_id: 3 });
  });
});

describe('the success envelope', () => {
  it('lists unused request keys, sorted, from query and body', async () => {
    const res = await fetch(`${t.base}/api/v1/user_topics?zeta=1`, {
      method: 'POST',
      body: 'stream_id=3&topic=a&visibility_policy=0&alpha=2',
      headers: {
        authorization: basicAuth(t.user('hamlet').email, t.user('hamlet').api_key),
        'content-type': 'application/x-www-form-urlencoded',
      },
    });
    expect(await res.json()).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['alpha', 'zeta'] });
  });

  it('leaves the field out when every key was used, and on errors', async () => {
    const ok = await t.as('hamlet').post('/user_topics', { stream_id: 3, topic: 'a', visibility_policy: 0 });
    expect(ok.body).toEqual({ result: 'success', msg: '' });
    const err = await t.as('hamlet').post('/user_topics', { stream_id: 3, topic: 'a', visibility_policy: 9, extra: 1 });
    expect(err.body).not.toHaveProperty('ignored_parameters_unsupported');
  });
});

describe('failures', () => {
  it('turns an unexpected exception into a logged 500 envelope and keeps serving', async () => {
    logged.length = 0;
    const r = await t.as('hamlet').get('/users/me');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
    expect(logged.join('\n')).toMatch(/Error: boom\n\s+at /);
    expect((await t.as('hamlet').get('/realm/linkifiers')).status).toBe(200);
  });

  it('answers an over-large body with a 413 envelope', async () => {
    const r = await t
      .as('hamlet')
      .post('/user_topics', { stream_id: 3, topic: 'x'.repeat(2 * 1024 * 1024), visibility_policy: 0 });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('logs a response that breaks the description, naming the operation and the JSON path', async () => {
    logged.length = 0;
    const r = await t.as('hamlet').post('/saved_snippets', { title: 't', content: 'c' });
    expect(r.status).toBe(200);
    const violations = takeViolations();
    expect(violations).toHaveLength(1);
    expect(violations[0].operation).toBe('create-saved-snippet');
    expect(logged.join('\n')).toContain('create-saved-snippet');
    expect(logged.join('\n')).toContain('/saved_snippet_id');
  });
});

describe('--strict-responses', () => {
  it('turns a response that breaks the description into a 500', async () => {
    const strict = await startTestServer({ views: { authenticated: views, open: {} }, strictResponses: true });
    try {
      const r = await strict.as('hamlet').post('/saved_snippets', { title: 't', content: 'c' });
      expect(r.status).toBe(500);
      expect(r.body.code).toBe('CONTRACT_VIOLATION');
      expect(r.body.msg).toContain('/saved_snippet_id');
      takeViolations();
    } finally {
      await strict.close();
    }
  });
});

describe('ApiError', () => {
  it('carries code, message, status and extra fields', () => {
    const e = new ApiError('STREAM_DOES_NOT_EXIST', "Channel 'x' does not exist", 400, { stream: 'x' });
    expect([e.code, e.message, e.status, e.extra]).toEqual([
      'STREAM_DOES_NOT_EXIST',
      "Channel 'x' does not exist",
      400,
      { stream: 'x' },
    ]);
  });
});
