// GET/POST /navigation_views and PATCH/DELETE /navigation_views/{fragment}: one user's sidebar
// views, with the navigation_view events and the register section.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';

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

const list = async (who: string) => (await t.as(who).get('/navigation_views')).body.navigation_views;
const enc = encodeURIComponent;

describe('navigation views', () => {
  it('adds built-in and custom views, read back by GET and register, with add events to the owner only', async () => {
    const q = await registerQueue(t, 'hamlet', ['navigation_view']);
    const other = await registerQueue(t, 'othello', ['navigation_view']);
    expect((await t.as('hamlet').post('/navigation_views', { fragment: 'inbox', is_pinned: false })).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect(
      (
        await t
          .as('hamlet')
          .post('/navigation_views', { fragment: ' narrow/is/alerted ', is_pinned: true, name: ' Alert words ' })
      ).status,
    ).toBe(200);
    const views = [
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' },
    ];
    expect(await list('hamlet')).toEqual(views);
    expect(await list('othello')).toEqual([]);
    const reg = await t.as('hamlet').post('/register', { fetch_event_types: ['navigation_view'] });
    expect(reg.body.navigation_views).toEqual(views);
    expect(await eventsOf(t, 'hamlet', q)).toEqual(
      views.map((v, id) => ({ type: 'navigation_view', op: 'add', id, navigation_view: v })),
    );
    expect(await eventsOf(t, 'othello', other)).toEqual([]);
  });

  it('edits and removes a view by its fragment, slashes percent-encoded or not', async () => {
    await t
      .as('hamlet')
      .post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert words' });
    const q = await registerQueue(t, 'hamlet', ['navigation_view']);
    expect(
      (
        await t
          .as('hamlet')
          .patch(`/navigation_views/${enc('narrow/is/alerted')}`, { name: 'Alerts', is_pinned: false })
      ).status,
    ).toBe(200);
    expect(await list('hamlet')).toEqual([{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' }]);
    expect((await t.as('hamlet').delete('/navigation_views/narrow/is/alerted')).status).toBe(200);
    expect(await list('hamlet')).toEqual([]);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      {
        type: 'navigation_view',
        op: 'update',
        id: 0,
        fragment: 'narrow/is/alerted',
        data: { name: 'Alerts', is_pinned: false },
      },
      { type: 'navigation_view', op: 'remove', id: 1, fragment: 'narrow/is/alerted' },
    ]);
  });

  it('refuses names on built-in views, custom views without one, and duplicates', async () => {
    expectError(
      await t.as('hamlet').post('/navigation_views', { fragment: 'recent', is_pinned: true, name: 'Mine' }),
      400,
      'BAD_REQUEST',
      'Built-in views cannot have a custom name.',
    );
    expectError(
      await t.as('hamlet').post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true }),
      400,
      'BAD_REQUEST',
      'Custom views must have a valid name.',
    );
    expectError(
      await t.as('hamlet').post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: '  ' }),
      400,
      'BAD_REQUEST',
      'Custom views must have a valid name.',
    );
    await t.as('hamlet').post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    expectError(
      await t
        .as('hamlet')
        .post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Other' }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    expectError(
      await t
        .as('hamlet')
        .post('/navigation_views', { fragment: 'narrow/is/private', is_pinned: false, name: 'Alerts' }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    expectError(
      await t.as('hamlet').post('/navigation_views', { fragment: 'inbox' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'is_pinned' argument",
    );
    // Another user may use the same fragment and name.
    expect(
      (
        await t
          .as('othello')
          .post('/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' })
      ).status,
    ).toBe(200);
    await t.as('hamlet').post('/navigation_views', { fragment: 'feed', is_pinned: true });
    expectError(
      await t.as('hamlet').patch('/navigation_views/feed', { name: 'Feed' }),
      400,
      'BAD_REQUEST',
      'Built-in views cannot have a custom name.',
    );
    expectError(
      await t.as('hamlet').patch(`/navigation_views/${enc('narrow/is/alerted')}`, { name: 'Alerts' }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    expect(await list('hamlet')).toEqual([
      { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' },
      { fragment: 'feed', is_pinned: true, name: null },
    ]);
  });

  it("answers 404 for a view the caller does not have (another user's included)", async () => {
    await t.as('othello').post('/navigation_views', { fragment: 'drafts', is_pinned: false });
    expectError(
      await t.as('hamlet').patch('/navigation_views/drafts', { is_pinned: true }),
      404,
      'BAD_REQUEST',
      'Navigation view does not exist.',
    );
    expectError(
      await t.as('hamlet').delete('/navigation_views/drafts'),
      404,
      'BAD_REQUEST',
      'Navigation view does not exist.',
    );
    expect(await list('othello')).toEqual([{ fragment: 'drafts', is_pinned: false, name: null }]);
  });

  it('does not exist before feature level 390, nor its register section', async () => {
    const old = { 'X-Mock-Feature-Level': '389' };
    expectError(await t.as('hamlet', old).get('/navigation_views'), 404, 'BAD_REQUEST', 'Not Found');
    expectError(
      await t.as('hamlet', old).post('/navigation_views', { fragment: 'inbox', is_pinned: true }),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
    expectError(await t.as('hamlet', old).delete('/navigation_views/inbox'), 404, 'BAD_REQUEST', 'Not Found');
    const reg = await t.as('hamlet', old).post('/register', { fetch_event_types: ['navigation_view'] });
    expect(reg.body).not.toHaveProperty('navigation_views');
  });
});
