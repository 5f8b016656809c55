// startMockServer({ https: true }): the mock answers HTTPS with a self-signed certificate it gives
// the test (to trust as a CA), its control client trusts it, and realm_url is https, sandboxes too.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpsGet } from '../helpers/https.js';
import { startMockServer, type StartedMock } from '../../src/index.js';

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMockServer({ https: true });
});
afterAll(() => mock.close());

const getJson = async (url: string, ca: string | undefined): Promise<Record<string, unknown>> =>
  JSON.parse((await httpsGet(url, ca)).body);

it('answers HTTPS with the certificate it gives, and realm_url is https in the default world and a sandbox', async () => {
  expect(mock.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(mock.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
  expect((await getJson(`${mock.baseUrl}/api/v1/server_settings`, mock.certificate!)).realm_url).toBe(mock.baseUrl);
  const sandbox = mock.sandbox('tls');
  expect((await getJson(`${sandbox.baseUrl}/api/v1/server_settings`, mock.certificate!)).realm_url).toBe(
    sandbox.baseUrl,
  );
  expect(mock.server.certificate!.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
});

it('refuses a client that does not trust the certificate', async () => {
  await expect(getJson(`${mock.baseUrl}/api/v1/server_settings`, undefined)).rejects.toThrow(/self.signed/i);
});

it('gives a control client that trusts the certificate', async () => {
  expect((await mock.control.info()).sandbox).toBe('default');
  await mock.control.reset();
});
