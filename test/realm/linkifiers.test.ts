// GET /realm/linkifiers: the organization's linkifiers.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };

describe('GET /realm/linkifiers', () => {
  it('lists the linkifiers in their stored order, with every field', async () => {
    const r = await t.as('polonius').get('/realm/linkifiers');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ...ok,
      linkifiers: [
        {
          id: 1,
          pattern: '#(?P<id>[0-9]+)',
          url_template: 'https://github.com/zulip/zulip/issues/{id}',
          example_input: '#123',
          reverse_template: '#{id}',
          alternative_url_templates: ['https://github.com/zulip/zulip/pull/{id}'],
        },
        {
          id: 2,
          pattern: 'RT(?P<id>[0-9]+)',
          url_template: 'https://rt.example.com/ticket/{id}',
          example_input: null,
          reverse_template: null,
          alternative_url_templates: [],
        },
      ],
    });
  });

  it('follows the stored order, not the IDs', async () => {
    const store = t.server.world.store;
    const first = store.linkifiers.get(1)!;
    store.linkifiers.remove(first);
    store.linkifiers.insert(first);
    const r = await t.as('hamlet').get('/realm/linkifiers');
    expect(r.body.linkifiers.map((l: { id: number }) => l.id)).toEqual([2, 1]);
  });

  it('needs credentials', async () => {
    expect((await t.anonymous().get('/realm/linkifiers')).status).toBe(401);
  });
});
