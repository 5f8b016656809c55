// GET /realm/emoji: the organization's custom emoji.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;

describe('GET /realm/emoji', () => {
  it('lists the custom emoji by ID, deactivated ones included', async () => {
    const r = await t.as('polonius').get('/realm/emoji');
    expect(r.body.emoji).toEqual({
      1: {
        id: '1',
        name: 'green_tick',
        source_url: '/user_avatars/2/emoji/images/1.png',
        deactivated: false,
        author_id: id('iago'),
      },
      2: {
        id: '2',
        name: 'old_logo',
        source_url: '/user_avatars/2/emoji/images/2.png',
        deactivated: true,
        author_id: id('desdemona'),
      },
    });
  });
});
