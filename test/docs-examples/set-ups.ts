// The set-up and replacements the real server's suite applies before some curl examples
// (zerver/openapi/curl_param_value_generators.py, read at zulip/zulip main of December 2025, the
// stored version nearest 10.2), done here through the mock's HTTP API as the real helpers do them
// in the database: each creates what its example acts on and names it by the ID the mock gave
// it, so that the fixture's next free IDs (which can differ from the real database's) do not
// matter. Generators of operations newer than 10.2 (channel folders) are left out.
import { expect } from 'vitest';
import { basicAuth, type TestServer } from '../helpers/server.js';
import type { Overrides } from './curl-request.js';

/** Who the example authenticates as: Iago (tools/test-api), or the user a set-up made. */
export interface Credentials {
  email: string;
  api_key: string;
}

export interface SetUpContext {
  t: TestServer;
  /** Makes later examples authenticate as someone else (deactivate-own-user's set-up). */
  authenticateAs(who: Credentials): void;
}

/** The GIF the real suite uploads is zerver/tests/images/animated_img.gif; any small GIF will do. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

type SetUp = (ctx: SetUpContext) => Promise<Overrides>;

async function ok(p: Promise<{ status: number; body: any }>, what: string) {
  const r = await p;
  expect(r.status, `set-up: ${what}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  return r.body;
}

/** ZulipTestCase.subscribe: joins the channel, creating it when there is none. */
const subscribe = (t: TestServer, who: string, channel: string) =>
  ok(t.as(who).post('/users/me/subscriptions', { subscriptions: [{ name: channel }] }), `subscribe ${who} ${channel}`);

const streamId = async (t: TestServer, name: string): Promise<number> =>
  (await ok(t.as('iago').get('/get_stream_id', { stream: name }), `id of ${name}`)).stream_id;

/** ZulipTestCase.send_stream_message: topic "test" unless named. */
const sendToChannel = async (t: TestServer, who: string, channel: string, topic = 'test'): Promise<number> =>
  (
    await ok(
      t.as(who).post('/messages', { type: 'stream', to: channel, topic, content: 'test content' }),
      `send to ${channel}`,
    )
  ).id;

const createUser = async (t: TestServer, email: string, password: string, fullName: string): Promise<number> =>
  (await ok(t.as('iago').post('/users', { email, password, full_name: fullName }), `create ${email}`)).user_id;

async function uploadAsIago(t: TestServer, name: string, bytes: Buffer, type: string): Promise<string> {
  const iago = t.user('iago');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${t.base}/api/v1/user_uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: basicAuth(iago.email, iago.api_key) },
  });
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.url as string;
}

async function iagoMessageId({ t }: SetUpContext): Promise<Overrides> {
  await subscribe(t, 'iago', 'Denmark');
  return { message_id: await sendToChannel(t, 'iago', 'Denmark') };
}

/** A named group as the real helper makes it ("temp", "temp-deactivation"), or its ID if it exists. */
async function tempGroup(t: TestServer, name: string): Promise<Overrides> {
  const { user_groups } = await ok(t.as('iago').get('/user_groups'), 'groups');
  const found = user_groups.find((g: any) => g.name === name);
  if (found) return { user_group_id: found.id };
  const created = await ok(
    t.as('iago').post('/user_groups/create', {
      name,
      description: name,
      members: [],
      // The real helper gives these settings by group ID: 11 administrators, 15 everyone.
      can_add_members_group: 11,
      can_join_group: 11,
      can_leave_group: 15,
      can_manage_group: 11,
      can_mention_group: 11,
      can_remove_members_group: 11,
    }),
    `create group ${name}`,
  );
  return { user_group_id: created.group_id };
}

/**
 * The example names the real database's group 38, an active group there when the example runs,
 * without the users and subgroups the example adds (made by the examples that ran before; the
 * real server also numbers the anonymous groups its group settings make, which the mock need
 * not match). Substituted: an empty group made as the real "temp" helper makes one.
 */
const standInFor38 = ({ t }: SetUpContext) => tempGroup(t, 'stand-in for group 38');

/** What tools/test-api sets before the examples run. */
export async function prepareAsTestApi(t: TestServer): Promise<void> {
  // The owner allows a full export (the export-realm example asks for one with consent).
  await ok(t.as('desdemona').patch('/settings', { allow_private_data_export: true }), 'export consent');
  // The real suite gives Iago the can_change_user_emails special permission (written to the
  // database, as no API grants it; the real development organization has no holder) for the
  // new_email of update-user and update-user-by-email.
  t.server.world.store.users.update(t.user('iago'), { can_change_user_emails: true });
}

/**
 * new_email_value: the first of new0@zulip.com, new1@zulip.com, ... no account has. The real
 * generator is registered for "/users/{email]:patch" (sic) and "/users/{user_id}:patch", so
 * only update-user gets it; update-user-by-email sends the description's username@example.com.
 */
async function newEmailValue({ t }: SetUpContext): Promise<Overrides> {
  const { members } = await ok(t.as('iago').get('/users'), 'users');
  const taken = new Set(members.map((u: { delivery_email: string | null }) => u.delivery_email));
  let count = 0;
  while (taken.has(`new${count}@zulip.com`)) count++;
  return { new_email: `new${count}@zulip.com` };
}

/**
 * What python_examples.py, which runs before the curl examples on the same database, leaves
 * behind that a curl example names by ID.
 */
export async function leaveWhatPythonExamplesLeave(t: TestServer): Promise<void> {
  // add_realm_filter makes linkifier 4 and remove_realm_filter removes it: add-linkifier then
  // makes 5, which reorder-linkifiers and update-linkifier name.
  const { id } = await ok(
    t.as('iago').post('/realm/filters', {
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://github.com/zulip/zulip/issues/{id}',
    }),
    'python add_realm_filter',
  );
  await ok(t.as('iago').delete(`/realm/filters/${id}`), 'python remove_realm_filter');
  // send_invitations invites two addresses (invitations 1 and 2), which resend-email-invite and
  // revoke-email-invite name; revoke_email_invitation invites a third and revokes it.
  await ok(
    t.as('iago').post('/invites', {
      invitee_emails: 'example@zulip.com, logan@zulip.com',
      invite_expires_in_minutes: 60 * 24 * 10,
      invite_as: 400,
      stream_ids: [],
    }),
    'python send_invitations',
  );
  await ok(t.as('iago').post('/invites', { invitee_emails: 'delete-invite@zulip.com', stream_ids: [] }), 'invite');
  const { invites } = await ok(t.as('iago').get('/invites'), 'invites');
  const third = invites.find((i: any) => !i.is_multiuse && i.email === 'delete-invite@zulip.com');
  await ok(t.as('iago').delete(`/invites/${third.id}`), 'python revoke_email_invitation');
}

/** Keyed as the real generators are, `<path>:<method>`. */
export const SET_UPS: Record<string, SetUp> = {
  // The real suite reads Iago's initial password; the mock's fixture password stands for it.
  '/fetch_api_key:post': async () => ({ username: 'iago@zulip.com', password: 'password_iago' }),
  '/messages/{message_id}:get': iagoMessageId,
  '/messages/{message_id}/history:get': iagoMessageId,
  '/messages/{message_id}:patch': iagoMessageId,
  '/messages/{message_id}:delete': iagoMessageId,
  '/messages/{message_id}/reactions:post': iagoMessageId,
  '/messages/{message_id}/reactions:delete': async (ctx) => {
    const { message_id } = await iagoMessageId(ctx);
    await ok(
      ctx.t.as('iago').post(`/messages/${message_id}/reactions`, { emoji_name: 'octopus', emoji_code: '1f419' }),
      'react',
    );
    return { message_id };
  },
  // Substituted: the real database's message 47 is Iago's and may still be edited when the
  // example runs; the fixture's 47 (Iago's too) is older than the edit limit, as its times are
  // fixed. A fresh message of Iago's, as python_examples.py's own example of it uses.
  '/messages/{message_id}/typing:post': iagoMessageId,
  '/user_groups/{user_group_id}/members:post': standInFor38,
  '/user_groups/{user_group_id}/subgroups:post': standInFor38,
  '/messages/flags:post': async ({ t }) => {
    await subscribe(t, 'iago', 'Venice');
    const messages = [];
    for (let i = 0; i < 3; i++) messages.push(await sendToChannel(t, 'iago', 'Venice'));
    return { messages };
  },
  '/mark_stream_as_read:post': async ({ t }) => ({ stream_id: await streamId(t, 'Venice') }),
  '/users/me/{stream_id}/topics:get': async ({ t }) => ({ stream_id: await streamId(t, 'Venice') }),
  '/streams/{stream_id}:patch': async ({ t }) => {
    await subscribe(t, 'iago', 'temp_stream 1');
    return { stream_id: await streamId(t, 'temp_stream 1') };
  },
  '/streams/{stream_id}:delete': async ({ t }) => {
    await subscribe(t, 'iago', 'temp_stream 2');
    return { stream_id: await streamId(t, 'temp_stream 2') };
  },
  '/mark_topic_as_read:post': async ({ t }) => {
    await subscribe(t, 'iago', 'Denmark');
    await sendToChannel(t, 'hamlet', 'Denmark', 'Tivoli Gardens');
    return { stream_id: await streamId(t, 'Denmark'), topic_name: 'Tivoli Gardens' };
  },
  '/users/me/subscriptions/properties:post': async ({ t }) => {
    await subscribe(t, 'iago', 'Verona');
    await subscribe(t, 'iago', 'social');
    return {
      subscription_data: [
        { stream_id: await streamId(t, 'Verona'), property: 'pin_to_top', value: true },
        { stream_id: await streamId(t, 'social'), property: 'color', value: '#f00f00' },
      ],
    };
  },
  '/users/me/subscriptions:delete': async ({ t }) => {
    for (const who of ['iago', 'ZOE']) for (const channel of ['Verona', 'social']) await subscribe(t, who, channel);
    return {};
  },
  '/events:get': async ({ t }) => {
    await subscribe(t, 'iago', 'Verona');
    const queue = await ok(t.as('iago').post('/register', { event_types: ['message', 'realm_emoji'] }), 'register');
    await sendToChannel(t, 'hamlet', 'Verona');
    return { queue_id: queue.queue_id, last_event_id: queue.last_event_id };
  },
  '/events:delete': async ({ t }) => {
    const queue = await ok(t.as('iago').post('/register', { event_types: ['message'] }), 'register');
    return { queue_id: queue.queue_id, last_event_id: queue.last_event_id };
  },
  '/users/{user_id_or_email}/presence:get': async ({ t }) => {
    await ok(t.as('iago').post('/users/me/presence', { status: 'active' }), 'presence');
    return {};
  },
  // ZulipTestCase.nonreg_email("test").
  '/users:post': async () => ({ email: 'test@zulip.com' }),
  '/users/{user_id}:patch': newEmailValue,
  '/user_groups/create:post': async ({ t }) => ({ members: [t.user('hamlet').user_id, t.user('othello').user_id] }),
  '/user_groups/{user_group_id}:patch': ({ t }) => tempGroup(t, 'temp'),
  '/user_groups/{user_group_id}/deactivate:post': ({ t }) => tempGroup(t, 'temp-deactivation'),
  '/realm/filters/{filter_id}:delete': async ({ t }) => {
    const { id } = await ok(
      t.as('iago').post('/realm/filters', {
        pattern: '#(?P<id>[0-9]{2,8})',
        url_template: 'https://github.com/zulip/zulip/pull/{id}',
      }),
      'add linkifier',
    );
    return { filter_id: id };
  },
  '/realm/emoji/{emoji_name}:post': async () => ({ filename: 'animated_img.gif' }),
  '/user_uploads:post': async () => ({ filename: 'animated_img.gif' }),
  '/realm/playgrounds:post': async () => ({
    name: 'Python2 playground',
    pygments_language: 'Python2',
    url_template: 'https://python2.example.com?code={code}',
  }),
  '/realm/playgrounds/{playground_id}:delete': async ({ t }) => {
    const { id } = await ok(
      t.as('iago').post('/realm/playgrounds', {
        name: 'Python playground',
        pygments_language: 'Python',
        url_template: 'https://python.example.com?code={code}',
      }),
      'add playground',
    );
    return { playground_id: id };
  },
  // The real helper creates the user without a password, which the API cannot: any will do.
  '/users/{user_id}:delete': async ({ t }) => ({
    user_id: await createUser(t, 'testuser@zulip.com', 'unused', 'test_user'),
  }),
  '/users/me:delete': async (ctx) => {
    const id = await createUser(ctx.t, 'delete-test@zulip.com', 'secret', 'Mr. Delete');
    await ok(ctx.t.as('desdemona').patch(`/users/${id}`, { role: 200 }), 'make administrator');
    const key = await ok(
      ctx.t.anonymous().post('/fetch_api_key', { username: 'delete-test@zulip.com', password: 'secret' }),
      'api key',
    );
    ctx.authenticateAs({ email: 'delete-test@zulip.com', api_key: key.api_key });
    return {};
  },
  '/attachments/{attachment_id}:delete': async ({ t }) => {
    const url = await uploadAsIago(t, 'dummy.txt', Buffer.from('zulip!'), 'text/plain');
    const { attachments } = await ok(t.as('iago').get('/attachments'), 'attachments');
    const found = attachments.find(
      (a: any) => url.endsWith(a.path_id) || a.path_id === url.replace('/user_uploads/', ''),
    );
    return { attachment_id: found.id };
  },
  '/user_uploads/{realm_id_str}/{filename}:get': async ({ t }) => {
    const url = await uploadAsIago(t, 'dummy.txt', Buffer.from('zulip!'), 'text/plain');
    const [, realm, filename] = /^\/user_uploads\/(\d+)\/(.*)$/.exec(url)!;
    return { realm_id_str: realm, filename };
  },
};
