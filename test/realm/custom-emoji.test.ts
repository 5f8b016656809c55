// GET /realm/emoji: the organization's custom emoji.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

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
