// A new person's avatar follows the organization's default_avatar_source from FL 456: J (the
// development organization's) draws an image kept like an upload (avatar_source J, a URL even for
// client_gravatar clients, served at /user_avatars/...), G keeps the Gravatar; below 456 every new
// person gets the Gravatar. Removing one's avatar goes back to the same default.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { multipart, TINY_PNG } from '../helpers/uploads.js';
import { ControlClient } from '../../src/control/client.js';
import { storeSettings } from '../../src/domain/realm/setting-values.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const params = { email: 'newbie@zulip.com', password: 'secret-password', full_name: 'New User' };
const create = (level = 511) => t.as('iago', { 'X-Mock-Feature-Level': String(level) }).post('/users', params);
const ownRegister = async () => (await t.as('newbie').post('/register', { fetch_event_types: ['realm_user'] })).body;

describe("new people's avatars (default_avatar_source, FL 456)", () => {
  it('J: a drawn image, announced with the account, a URL even with client_gravatar, served as a PNG', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm_user']);
    const r = await create();
    expect(r.status).toBe(200);
    const userId = r.body.user_id;
    const [added] = await eventsOf(t, 'hamlet', queue);
    const url: string = added.person.avatar_url;
    expect(url).toMatch(/^\/user_avatars\/\d+\/[0-9a-f]{40}\.png\?version=1$/);
    const listed = await t.as('hamlet').get(`/users/${userId}`, { client_gravatar: 'true' });
    expect(listed.body.user.avatar_url).toBe(url);
    const own = await ownRegister();
    expect(own).toMatchObject({ avatar_source: 'J', avatar_url: url });
    const image = await fetch(`${t.base}${url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(100); // 100 pixels wide
  });

  it('G: the Gravatar, as before', async () => {
    await t.as('iago').patch('/realm', { default_avatar_source: 'G' });
    const r = await create();
    const user = (await t.as('hamlet').get(`/users/${r.body.user_id}`, { client_gravatar: 'false' })).body.user;
    expect(user.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    expect((await ownRegister()).avatar_source).toBe('G');
  });

  it('below 456: the Gravatar whatever the setting says', async () => {
    const before = t.server.world.store.userAvatars.all().length;
    const r = await create(455);
    const user = (await t.as('hamlet').get(`/users/${r.body.user_id}`, { client_gravatar: 'false' })).body.user;
    expect(user.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    expect(t.server.world.store.userAvatars.all()).toHaveLength(before);
  });

  it('an upload replaces the drawn image (U), and removing it draws a new one (J), or the Gravatar under G', async () => {
    const r = await create();
    const files = [{ name: 'me.png', bytes: TINY_PNG, type: 'image/png' }];
    const uploaded = await multipart(t, 'newbie', 'POST', '/users/me/avatar', {}, files);
    expect(uploaded.status).toBe(200);
    expect((await ownRegister()).avatar_source).toBe('U');
    expect(t.server.world.store.userAvatars.filter((a) => a.user_id === r.body.user_id)).toHaveLength(1);
    await t.as('newbie').delete('/users/me/avatar');
    expect((await ownRegister()).avatar_source).toBe('J');
    storeSettings(t.server.world.store, { default_avatar_source: 'G' });
    await t.as('newbie').delete('/users/me/avatar');
    expect((await ownRegister()).avatar_source).toBe('G');
  });

  it("applies to people who join by an invitation too, at the world's level", async () => {
    const control = new ControlClient(t.base);
    const join = async (address: string) => {
      await t.as('iago').post('/invites', { invitee_emails: address, stream_ids: [1] });
      const [email] = (await control.outbox.list({ kind: 'email', user: address })).items as any[];
      await control.invites.accept({
        link: email.links.activate_url,
        full_name: 'Joiner',
        password: 'a-good-password',
      });
      return (await t.as(address).post('/register', { fetch_event_types: ['realm_user'] })).body.avatar_source;
    };
    expect(await join('joiner@example.com')).toBe('J');
    await control.setFeatureLevel(455);
    expect(await join('older@example.com')).toBe('G');
  });
});
