// POST and DELETE /realm/emoji/{emoji_name}: adding a custom emoji from one image and
// deactivating it, with the real server's name rules, permissions and wording, the list read back
// (GET /realm/emoji and register) and the realm_emoji events everyone gets.
import { describe, expect, it } from 'vitest';
import { basicAuth, serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { TINY_PNG } from '../helpers/uploads.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
type File = { name: string; bytes: Buffer; type?: string };
const png: File = { name: 'party.png', bytes: TINY_PNG, type: 'image/png' };

async function uploadEmoji(who: string, name: string, files: File[] = [png], headers: Record<string, string> = {}) {
  const u = t.user(who);
  const form = new FormData();
  files.forEach((f, i) => form.append(`f${i}`, new Blob([new Uint8Array(f.bytes)], { type: f.type ?? '' }), f.name));
  const res = await fetch(`${t.base}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: 'POST',
    body: form,
    headers: { authorization: basicAuth(u.email, u.api_key), ...headers },
  });
  return { status: res.status, body: (await res.json()) as any };
}
const listed = async () => (await t.as('othello').get('/realm/emoji')).body.emoji;
const setEmojiGroup = (group: number) => {
  (t.server.world.store.realm.shown_settings as Record<string, unknown>).can_add_custom_emoji_group = group;
};

describe('POST /realm/emoji/{emoji_name}', () => {
  it('adds the emoji (spaces become underscores), lists it and tells everyone the whole list', async () => {
    const othelloQ = await registerQueue(t, 'othello', ['realm_emoji']);
    const r = await uploadEmoji('hamlet', ' party time ');
    expect(r).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const emoji = await listed();
    const added = Object.values<any>(emoji).find((e) => e.name === 'party_time');
    expect(added).toEqual({
      id: expect.any(String),
      name: 'party_time',
      source_url: `/user_avatars/${t.server.world.store.realm.id}/emoji/images/${added.id}.png`,
      deactivated: false,
      author_id: id('hamlet'),
    });
    expect(await eventsOf(t, 'othello', othelloQ)).toEqual([
      { id: expect.any(Number), type: 'realm_emoji', op: 'update', realm_emoji: emoji },
    ]);
    const reg = await t.as('cordelia').post('/register', { fetch_event_types: ['realm_emoji'] });
    expect(reg.body.realm_emoji).toEqual(emoji);
  });

  it('follows can_add_custom_emoji_group: a member is refused when only administrators may', async () => {
    setEmojiGroup(3);
    expectError(await uploadEmoji('hamlet', 'mine'), 400, 'BAD_REQUEST', 'Insufficient permission');
    expect(Object.values<any>(await listed()).map((e) => e.name)).not.toContain('mine');
    expect((await uploadEmoji('iago', 'mine')).status).toBe(200);
    expectError(await uploadEmoji('polonius', 'guest_one'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });

  it('refuses bad names, a taken name, a wrong file count, a built-in name from a member, a bad type', async () => {
    expectError(
      await uploadEmoji('hamlet', 'Party'),
      400,
      'BAD_REQUEST',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    );
    expectError(
      await uploadEmoji('hamlet', 'party_'),
      400,
      'BAD_REQUEST',
      'Emoji names must end with either a letter or digit.',
    );
    expectError(await uploadEmoji('hamlet', '  '), 400, 'BAD_REQUEST', 'Emoji name is missing');
    expectError(
      await uploadEmoji('hamlet', 'green_tick'),
      400,
      'BAD_REQUEST',
      'A custom emoji with this name already exists.',
    );
    expectError(
      await uploadEmoji('hamlet', 'two', [png, png]),
      400,
      'BAD_REQUEST',
      'You must upload exactly one file.',
    );
    expectError(
      await uploadEmoji('hamlet', 'smile'),
      400,
      'BAD_REQUEST',
      'Only administrators can override default emoji.',
    );
    expectError(
      await uploadEmoji('hamlet', 'doc', [{ name: 'a.txt', bytes: Buffer.from('hi'), type: 'text/plain' }]),
      400,
      'BAD_IMAGE',
      'Invalid image format',
    );
    expectError(
      await uploadEmoji('hamlet', 'huge', [{ ...png, bytes: Buffer.alloc(5 * 1024 * 1024 + 1) }]),
      400,
      'BAD_REQUEST',
      'Uploaded file is larger than the allowed limit of 5 MiB',
    );
    expect(Object.keys(await listed())).toEqual(['1', '2']);
    // An administrator may override a built-in emoji; a deactivated emoji's name can be used again.
    expect((await uploadEmoji('iago', 'smile')).status).toBe(200);
    expect((await uploadEmoji('hamlet', 'old_logo')).status).toBe(200);
  });
});

describe('DELETE /realm/emoji/{emoji_name}', () => {
  it('lets the author deactivate their emoji; it stays listed, deactivated, and everyone is told', async () => {
    await uploadEmoji('hamlet', 'party');
    const cordeliaQ = await registerQueue(t, 'cordelia', ['realm_emoji']);
    expectError(
      await t.as('othello').delete('/realm/emoji/party'),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator or emoji author',
    );
    expect((await t.as('hamlet').delete('/realm/emoji/party')).body).toEqual({ result: 'success', msg: '' });
    const emoji = await listed();
    expect(Object.values<any>(emoji).find((e) => e.name === 'party')).toMatchObject({
      deactivated: true,
      author_id: id('hamlet'),
    });
    expect(await eventsOf(t, 'cordelia', cordeliaQ)).toEqual([
      { id: expect.any(Number), type: 'realm_emoji', op: 'update', realm_emoji: emoji },
    ]);
  });

  it("lets an administrator deactivate anyone's emoji, and answers 404 (400 before FL 190) for no such emoji", async () => {
    expect((await t.as('iago').delete('/realm/emoji/green_tick')).status).toBe(200);
    expect((await listed())['1'].deactivated).toBe(true);
    expectError(
      await t.as('iago').delete('/realm/emoji/green_tick'),
      404,
      'BAD_REQUEST',
      "Emoji 'green_tick' does not exist",
    );
    expectError(
      await t.as('iago', { 'X-Mock-Feature-Level': '189' }).delete('/realm/emoji/nope'),
      400,
      'BAD_REQUEST',
      "Emoji 'nope' does not exist",
    );
  });
});
