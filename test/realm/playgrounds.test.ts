// Code playgrounds: added and removed by administrators with the real server's checks and
// wording (model refusals with `errors` by field); everyone receives realm_playgrounds with every
// playground, and register reads the same list back.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);
const playgrounds = async (who = 'hamlet') =>
  (await t.as(who).post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds;
const admin = error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');

describe('POST /realm/playgrounds', () => {
  it('adds a playground and tells everyone', async () => {
    const queue = await registerQueue(t, 'polonius', ['realm_playgrounds']);
    const r = await t.as('iago').post('/realm/playgrounds', {
      name: ' Go playground ',
      pygments_language: 'Go',
      url_template: 'https://go.dev/play/?code={code}',
    });
    expect(r.body).toEqual({ ...ok, id: 3 });
    const list = await playgrounds();
    expect(list.at(-1)).toEqual({
      id: 3,
      name: 'Go playground',
      pygments_language: 'Go',
      url_template: 'https://go.dev/play/?code={code}',
    });
    expect(list.length).toBe(3);
    expect(strip(await eventsOf(t, 'polonius', queue))).toEqual([
      { type: 'realm_playgrounds', realm_playgrounds: list },
    ]);
  });

  it('refuses what the real server refuses', async () => {
    const plain: Array<[Record<string, string>, string]> = [
      [
        { name: 'X', pygments_language: 'Py<thon>', url_template: 'https://x.example/{code}' },
        'Invalid characters in pygments language',
      ],
      [
        { name: 'X', pygments_language: 'P'.repeat(41), url_template: 'https://x.example/{code}' },
        'pygments_language is too long (limit: 40 characters)',
      ],
    ];
    for (const [params, msg] of plain)
      expect((await t.as('iago').post('/realm/playgrounds', params)).body).toEqual(error('BAD_REQUEST', msg));
    const byField: Array<[Record<string, string>, string, string]> = [
      [
        { name: 'X', pygments_language: 'Go', url_template: 'https://x.example/{code' },
        'url_template',
        'Invalid URL template.',
      ],
      [
        { name: 'X', pygments_language: 'Go', url_template: 'https://x.example/{src}' },
        '__all__',
        'Missing the required variable "code" in the URL template',
      ],
      [
        { name: 'X', pygments_language: 'Go', url_template: 'https://x.example/{code}/{v}' },
        '__all__',
        '"code" should be the only variable present in the URL template',
      ],
      [
        { name: 'Python playground', pygments_language: 'Python', url_template: 'https://x.example/{code}' },
        '__all__',
        'Realm playground with this Realm, Pygments language and Name already exists.',
      ],
    ];
    for (const [params, field, msg] of byField) {
      const r = await t.as('iago').post('/realm/playgrounds', params);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg, { errors: { [field]: [msg] } }));
    }
    expect((await playgrounds()).length).toBe(2);
  });

  it('is for administrators', async () => {
    const r = await t.as('hamlet').post('/realm/playgrounds', {
      name: 'Go',
      pygments_language: 'Go',
      url_template: 'https://go.dev/play/?code={code}',
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(admin);
    expect((await playgrounds()).length).toBe(2);
  });
});

describe('DELETE /realm/playgrounds/{playground_id}', () => {
  it('removes a playground and tells everyone', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_playgrounds']);
    expect((await t.as('hamlet').delete('/realm/playgrounds/1')).body).toEqual(admin);
    expect((await t.as('iago').delete('/realm/playgrounds/99')).body).toEqual(
      error('BAD_REQUEST', 'Invalid playground'),
    );
    expect((await t.as('iago').delete('/realm/playgrounds/1')).body).toEqual(ok);
    const list = await playgrounds();
    expect(list.map((p: any) => p.id)).toEqual([2]);
    expect(strip(await eventsOf(t, 'othello', queue))).toEqual([
      { type: 'realm_playgrounds', realm_playgrounds: list },
    ]);
  });
});
