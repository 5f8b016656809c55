// Adding, changing, removing and reordering linkifiers: administrators only, the real server's
// validation errors, the realm_linkifiers events (no realm_filters since FL 176) and the list read back.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const ids = async () =>
  (await t.as('hamlet').get('/realm/linkifiers')).body.linkifiers.map((l: { id: number }) => l.id);
const capable = { client_capabilities: { linkifier_url_template: true } };
const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);

describe('POST /realm/filters', () => {
  it('adds a linkifier at the end, tells everyone and renders with it', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm_linkifiers', 'realm_filters'], capable);
    const old = await registerQueue(t, 'othello', ['realm_linkifiers']);
    const r = await t.as('iago').post('/realm/filters', {
      pattern: 'JIRA-(?P<key>[0-9]+)',
      url_template: 'https://jira.example.com/browse/{key}',
    });
    expect(r.body).toEqual({ ...ok, id: 3 });
    const added = {
      id: 3,
      pattern: 'JIRA-(?P<key>[0-9]+)',
      url_template: 'https://jira.example.com/browse/{key}',
      example_input: null,
      reverse_template: null,
      alternative_url_templates: [],
    };
    const list = (await t.as('hamlet').get('/realm/linkifiers')).body.linkifiers;
    expect(list.at(-1)).toEqual(added);
    // realm_filters went with FL 176 (test/events/event-levels.test.ts sends it to an older queue).
    expect(strip(await eventsOf(t, 'hamlet', queue))).toEqual([{ type: 'realm_linkifiers', realm_linkifiers: list }]);
    expect(strip(await eventsOf(t, 'othello', old))).toEqual([{ type: 'realm_linkifiers', realm_linkifiers: [] }]);
    const rendered = await t.as('hamlet').post('/messages/render', { content: 'see JIRA-12' });
    expect(rendered.body.rendered).toContain('href="https://jira.example.com/browse/12"');
  });

  it('refuses what the real server refuses, with errors by field', async () => {
    // The model's validation: the pattern is checked in the model's clean() (so under __all__),
    // with RE2's wording; the first problem is the msg, errors lists them all by field.
    const existing = t.server.world.store.linkifiers.get(1)!.pattern;
    const cases: Array<[string, string, Record<string, string[]>]> = [
      ['(foo', 'https://x.example/{id}', { __all__: ['Bad regular expression: missing ): (foo'] }],
      [
        'ZUL-(?P<id>\\d????)',
        'https://x.example/{id}',
        { __all__: ['Bad regular expression: bad repetition operator: ????'] },
      ],
      ['X#(?P<id>[0-9]+)', 'https://x.example/{id', { url_template: ['Invalid URL template.'] }],
      [
        'X#(?P<id>[0-9]+)',
        'https://x.example/{key}',
        { __all__: ["Group 'key' in URL template is not present in linkifier pattern."] },
      ],
      [
        'X#(?P<id>[0-9]+)-(?P<b>[0-9]+)-(?P<a>[0-9]+)',
        'https://x.example/{id}',
        { __all__: ["Group 'a' in linkifier pattern is not present in URL template."] },
      ],
      [
        '',
        'https://x.example/{id}',
        {
          pattern: ['This field cannot be blank.'],
          __all__: ["Group 'id' in URL template is not present in linkifier pattern."],
        },
      ],
      [
        '(bad',
        'https://x.example/{id',
        { url_template: ['Invalid URL template.'], __all__: ['Bad regular expression: missing ): (bad'] },
      ],
      [existing, 'https://x.example/{id}', { __all__: ['Realm filter with this Realm and Pattern already exists.'] }],
    ];
    for (const [pattern, url_template, errors] of cases) {
      const r = await t.as('iago').post('/realm/filters', { pattern, url_template });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', Object.values(errors)[0][0], { errors }));
    }
    expect(await ids()).toEqual([1, 2]);
  });

  it('is for administrators', async () => {
    const r = await t
      .as('hamlet')
      .post('/realm/filters', { pattern: 'X(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' });
    expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    expect(await ids()).toEqual([1, 2]);
  });
});

describe('PATCH and DELETE /realm/filters/{filter_id}', () => {
  it('changes a linkifier in place and removes one', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm_linkifiers'], capable);
    const r = await t.as('desdemona').patch('/realm/filters/1', {
      pattern: 'GH-(?P<id>[0-9]+)',
      url_template: 'https://github.com/zulip/zulip/pull/{id}',
    });
    expect(r.body).toEqual(ok);
    const [first] = (await t.as('hamlet').get('/realm/linkifiers')).body.linkifiers;
    expect(first).toMatchObject({
      id: 1,
      pattern: 'GH-(?P<id>[0-9]+)',
      url_template: 'https://github.com/zulip/zulip/pull/{id}',
    });
    expect((await t.as('iago').delete('/realm/filters/2')).body).toEqual(ok);
    expect(await ids()).toEqual([1]);
    const events = await eventsOf(t, 'hamlet', queue);
    expect(events.map((e) => e.realm_linkifiers.map((l: { id: number }) => l.id))).toEqual([[1, 2], [1]]);
  });

  it('answers Linkifier not found. for an unknown ID, and refuses members', async () => {
    expect((await t.as('iago').delete('/realm/filters/99')).body).toEqual(error('BAD_REQUEST', 'Linkifier not found.'));
    const p = await t
      .as('iago')
      .patch('/realm/filters/99', { pattern: 'X(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' });
    expect(p.body).toEqual(error('BAD_REQUEST', 'Linkifier not found.'));
    expect((await t.as('hamlet').delete('/realm/filters/1')).body).toEqual(
      error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'),
    );
    expect(await ids()).toEqual([1, 2]);
  });
});

describe('PATCH /realm/linkifiers', () => {
  it('reorders the list', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_linkifiers'], capable);
    expect((await t.as('iago').patch('/realm/linkifiers', { ordered_linkifier_ids: [2, 1] })).body).toEqual(ok);
    expect(await ids()).toEqual([2, 1]);
    const [event] = await eventsOf(t, 'othello', queue);
    expect(event.realm_linkifiers.map((l: { id: number }) => l.id)).toEqual([2, 1]);
  });

  it('needs every linkifier exactly once, from an administrator', async () => {
    expect((await t.as('iago').patch('/realm/linkifiers', { ordered_linkifier_ids: [1, 1] })).body).toEqual(
      error('BAD_REQUEST', 'The ordered list must not contain duplicated linkifiers'),
    );
    for (const list of [[1], [1, 2, 3]]) {
      expect((await t.as('iago').patch('/realm/linkifiers', { ordered_linkifier_ids: list })).body).toEqual(
        error('BAD_REQUEST', 'The ordered list must enumerate all existing linkifiers exactly once'),
      );
    }
    expect((await t.as('hamlet').patch('/realm/linkifiers', { ordered_linkifier_ids: [2, 1] })).body).toEqual(
      error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'),
    );
    expect(await ids()).toEqual([1, 2]);
  });
});
