// POST /remotes/push/e2ee/register: the mock as push bouncer for the remote servers it is given:
// their HTTP Basic credentials, their registered organizations, registrations kept by token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, Client, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

const SERVER = '6cde5f7a-1f7e-4978-9716-49f69ebfc9fe';
const KEY = 'remote-server-api-key';
const ORG = '9aa61d0b-8ce5-488d-8e9e-fedc346e6836';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ services: { remoteServers: [{ uuid: SERVER, apiKey: KEY, realmUuids: [ORG] }] } });
});
afterAll(async () => {
  await t.close();
});

const as = (authorization?: string, level?: number) =>
  new Client(t.base, null, {
    ...(authorization ? { authorization } : {}),
    ...(level ? { 'X-Mock-Feature-Level': String(level) } : {}),
  });
const fields = {
  realm_uuid: ORG,
  token_id: '+wKIhyAx/Eg=',
  encrypted_push_registration: 'sealed',
  bouncer_public_key: 'bouncer-public-key',
};
const devices = () => t.server.world.store.remotePushDevices.all();

describe('POST /remotes/push/e2ee/register', () => {
  it('keeps the registration of an authenticated server, replaced by the same token again', async () => {
    const r = await as(basicAuth(SERVER, KEY)).post('/remotes/push/e2ee/register', fields);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const [device] = devices();
    expect(devices()).toEqual([
      {
        server_uuid: SERVER,
        realm_uuid: ORG,
        token_id: '+wKIhyAx/Eg=',
        bouncer_public_key: 'bouncer-public-key',
        encrypted_push_registration: 'sealed',
        date_registered: device.date_registered,
      },
    ]);
    expect(Math.abs(device.date_registered - t.server.clock.now())).toBeLessThanOrEqual(1);
    await as(basicAuth(SERVER, KEY)).post('/remotes/push/e2ee/register', {
      ...fields,
      encrypted_push_registration: 'sealed again',
    });
    expect(devices().map((d) => d.encrypted_push_registration)).toEqual(['sealed again']);
  });

  it("refuses missing or wrong credentials, a user's credentials and an organization the server did not register", async () => {
    const before = devices().length;
    expectError(
      await as().post('/remotes/push/e2ee/register', fields),
      401,
      'UNAUTHORIZED',
      'Missing authorization header for basic auth',
    );
    expectError(
      await as('Bearer x').post('/remotes/push/e2ee/register', fields),
      401,
      'UNAUTHORIZED',
      'This endpoint requires HTTP basic authentication.',
    );
    expectError(
      await as(basicAuth('nobody', KEY)).post('/remotes/push/e2ee/register', fields),
      401,
      'UNAUTHORIZED',
      'Zulip server auth failure: nobody is not registered -- did you run `manage.py register_server`?',
    );
    expectError(
      await as(basicAuth(SERVER, 'wrong')).post('/remotes/push/e2ee/register', fields),
      401,
      'UNAUTHORIZED',
      `Zulip server auth failure: key does not match role ${SERVER}`,
    );
    const hamlet = t.user('hamlet');
    expectError(
      await as(basicAuth(hamlet.email, hamlet.api_key)).post('/remotes/push/e2ee/register', fields),
      400,
      'BAD_REQUEST',
      'Must validate with valid Zulip server API key',
    );
    expectError(
      await as(basicAuth(SERVER, KEY)).post('/remotes/push/e2ee/register', { ...fields, realm_uuid: 'another-org' }),
      403,
      'MISSING_REMOTE_REALM',
      'Organization not registered',
    );
    const { token_id: _token, ...noToken } = fields;
    expectError(
      await as(basicAuth(SERVER, KEY)).post('/remotes/push/e2ee/register', noToken),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'token_id' argument",
    );
    expect(devices().length).toBe(before);
  });

  it('names the registration by push_account_id before feature level 468, and does not exist before 406', async () => {
    const { token_id: _token, ...old } = fields;
    expect(
      (await as(basicAuth(SERVER, KEY), 467).post('/remotes/push/e2ee/register', { ...old, push_account_id: 2408 }))
        .status,
    ).toBe(200);
    expect(devices().some((d) => d.token_id === '2408')).toBe(true);
    expectError(
      await as(basicAuth(SERVER, KEY), 467).post('/remotes/push/e2ee/register', old),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'push_account_id' argument",
    );
    expectError(
      await as(basicAuth(SERVER, KEY), 405).post('/remotes/push/e2ee/register', fields),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});
