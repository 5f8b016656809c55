// Data exports: requested by an administrator, finished on the mock clock, announced to the
// administrators (realm_export), downloadable as a .tar.gz of the organization's public data,
// deleted; consents and their event; every refusal the real server gives.
import { beforeEach, describe, expect, it } from 'vitest';
import { serverResetPerTest, startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { download } from '../helpers/uploads.js';
import { untar } from '../helpers/tar.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
serverResetPerTest((server) => {
  t = server;
  control = new ControlClient(server.base);
});
beforeEach(async () => {
  await control.clock.real();
});

const adminOnly = error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
const exportsOf = async () => (await t.as('iago').get('/export/realm')).body.exports;
const finish = () => control.clock.advance(10_000);

describe('POST /export/realm', () => {
  it('starts a pending export, finishes it on the clock and serves its archive', async () => {
    const adminQueue = await registerQueue(t, 'desdemona', ['realm_export']);
    const memberQueue = await registerQueue(t, 'hamlet', ['realm_export']);
    const r = await t.as('iago').post('/export/realm', {});
    expect(r.body).toEqual({ result: 'success', msg: '', id: 1 });
    const [pending] = await exportsOf();
    expect(pending).toEqual({
      id: 1,
      acting_user_id: t.user('iago').user_id,
      export_time: expect.any(Number),
      export_url: null,
      deleted_timestamp: null,
      failed_timestamp: null,
      pending: true,
      export_type: 'public',
      export_from_prior_server: false,
    });
    await finish();
    const [done] = await exportsOf();
    expect(done).toMatchObject({
      id: 1,
      pending: false,
      export_url: expect.stringMatching(/\/user_avatars\/exports\/\d+\/[\w-]+\/zulip-export-[\w-]+\.tar\.gz$/),
    });

    const events = await eventsOf(t, 'desdemona', adminQueue);
    expect(events.map((e) => [e.type, e.exports[0].pending])).toEqual([
      ['realm_export', true],
      ['realm_export', false],
    ]);
    expect(await eventsOf(t, 'hamlet', memberQueue)).toEqual([]);

    // The requester hears from the notification bot.
    const dm = (await t.as('iago').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).body
      .messages[0];
    expect(dm).toMatchObject({ type: 'private', sender_email: 'notification-bot@zulip.com' });
    expect(dm.content).toContain('Your data export is complete.');

    const file = await download(t, null, new URL(done.export_url).pathname);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/gzip');
    const files = await untar(file.bytes);
    const names = Object.keys(files)
      .map((n) => n.split('/').slice(1).join('/'))
      .sort();
    expect(names).toEqual(['attachment.json', 'messages-000001.json', 'realm.json']);
    const realm = JSON.parse(Object.entries(files).find(([n]) => n.endsWith('realm.json'))![1]);
    const messages = JSON.parse(
      Object.entries(files).find(([n]) => n.endsWith('messages-000001.json'))![1],
    ).zerver_message;
    // A public export: public channels only, no direct messages, no secrets.
    expect(realm.zerver_stream.every((s: { invite_only: boolean }) => !s.invite_only)).toBe(true);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m: { type: string }) => m.type === 'stream')).toBe(true);
    expect(JSON.stringify(realm)).not.toContain(t.user('iago').api_key);
  });

  it('standard exports need a consenting owner, then hold private data of consenting users', async () => {
    expect((await t.as('iago').post('/export/realm', { export_type: 'full_with_consent' })).body).toEqual(
      error(
        'BAD_REQUEST',
        'Make sure at least one Organization Owner is consenting to the export or contact support@zulip.com for help.',
      ),
    );
    await t.as('desdemona').patch('/settings', { allow_private_data_export: true });
    const r = await t.as('iago').post('/export/realm', { export_type: 'full_with_consent' });
    expect(r.status).toBe(200);
    await finish();
    const [done] = await exportsOf();
    expect(done.export_type).toBe('full_with_consent');
    const files = await untar((await download(t, null, new URL(done.export_url).pathname)).bytes);
    const realm = JSON.parse(Object.entries(files).find(([n]) => n.endsWith('realm.json'))![1]);
    expect(realm.zerver_stream.some((s: { invite_only: boolean }) => s.invite_only)).toBe(true);
  });

  it('public exports need an owner whose email administrators may see', async () => {
    await t.as('desdemona').patch('/settings', { email_address_visibility: 4 });
    expect((await t.as('iago').post('/export/realm', {})).body).toEqual(
      error(
        'BAD_REQUEST',
        'Make sure at least one Organization Owner allows other Administrators to see their email address or contact support@zulip.com for help',
      ),
    );
  });

  it('allows 5 exports in 7 days', async () => {
    for (let i = 0; i < 5; i++) expect((await t.as('iago').post('/export/realm', {})).status).toBe(200);
    expect((await t.as('iago').post('/export/realm', {})).body).toEqual(error('BAD_REQUEST', 'Exceeded rate limit.'));
    await control.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    expect((await t.as('iago').post('/export/realm', {})).body.id).toBe(6);
  });

  it('is for administrators only, as are the list and the consents', async () => {
    for (const who of ['shiva', 'hamlet', 'polonius']) {
      expect((await t.as(who).post('/export/realm', {})).body).toEqual(adminOnly);
      expect((await t.as(who).get('/export/realm')).body).toEqual(adminOnly);
      expect((await t.as(who).get('/export/realm/consents')).body).toEqual(adminOnly);
      expect((await t.as(who).delete('/export/realm/1')).body).toEqual(adminOnly);
    }
    expect(await exportsOf()).toEqual([]);
  });

  it('by feature level: no export_type below 304, no id below 182', async () => {
    await t
      .as('iago', { 'X-Mock-Feature-Level': '181' })
      .post('/export/realm', {})
      .then((r) => expect(r.body).toEqual({ result: 'success', msg: '' }));
    const old = (await t.as('iago', { 'X-Mock-Feature-Level': '303' }).get('/export/realm')).body.exports[0];
    expect(old).not.toHaveProperty('export_type');
  });
});

describe('DELETE /export/realm/{export_id}', () => {
  it('deletes a finished export: no more URL, the archive gone, administrators told', async () => {
    await t.as('iago').post('/export/realm', {});
    expect((await t.as('iago').delete('/export/realm/1')).body).toEqual(
      error('BAD_REQUEST', 'Export still in progress'),
    );
    await finish();
    const url = new URL((await exportsOf())[0].export_url).pathname;
    const queue = await registerQueue(t, 'desdemona', ['realm_export']);
    expect((await t.as('iago').delete('/export/realm/1')).body).toEqual({ result: 'success', msg: '' });
    const [deleted] = await exportsOf();
    expect(deleted).toMatchObject({ export_url: null, pending: false, deleted_timestamp: expect.any(Number) });
    expect((await eventsOf(t, 'desdemona', queue)).map((e) => e.exports[0].deleted_timestamp)).toEqual([
      deleted.deleted_timestamp,
    ]);
    expect((await download(t, null, url)).body).toEqual(error('BAD_REQUEST', 'File not found.'));
    expect((await t.as('iago').delete('/export/realm/1')).body).toEqual(error('BAD_REQUEST', 'Export already deleted'));
    expect((await t.as('iago').delete('/export/realm/99')).body).toEqual(
      error('BAD_REQUEST', 'Invalid data export ID'),
    );
  });
});

describe('GET /export/realm/consents (FL 295)', () => {
  it('lists every active person with their consent; administrators hear of changes (FL 312)', async () => {
    const queue = await registerQueue(t, 'iago', ['realm_export_consent']);
    await t.as('hamlet').patch('/settings', { allow_private_data_export: true });
    const { export_consents } = (await t.as('iago').get('/export/realm/consents')).body;
    expect(export_consents).toContainEqual({ user_id: t.user('hamlet').user_id, consented: true });
    expect(export_consents).toContainEqual({ user_id: t.user('othello').user_id, consented: false });
    expect(export_consents.some((c: { user_id: number }) => c.user_id === t.user('iago-bot').user_id)).toBe(false);
    expect((await eventsOf(t, 'iago', queue)).map(({ id: _id, ...e }) => e)).toEqual([
      { type: 'realm_export_consent', user_id: t.user('hamlet').user_id, consented: true },
    ]);
  });

  it('sends no consent event to queues older than FL 312', async () => {
    const queue = (await t.as('iago', { 'X-Mock-Feature-Level': '311' }).post('/register', { fetch_event_types: [] }))
      .body.queue_id;
    await t.as('hamlet').patch('/settings', { allow_private_data_export: true });
    expect((await eventsOf(t, 'iago', queue)).filter((e) => e.type === 'realm_export_consent')).toEqual([]);
  });
});

describe("an archive past the mock's bound on held files", () => {
  it('fails the export, which then has nothing to delete', async () => {
    const small = await startTestServer({ maxUploadSpaceBytes: 1024 });
    try {
      expect((await small.as('iago').post('/export/realm', {})).status).toBe(200);
      const [failed] = (await small.as('iago').get('/export/realm')).body.exports;
      expect(failed).toMatchObject({ pending: false, export_url: null, failed_timestamp: expect.any(Number) });
      expect((await small.as('iago').delete('/export/realm/1')).body).toEqual(
        error('BAD_REQUEST', 'Export failed, nothing to delete'),
      );
    } finally {
      await small.close();
    }
  });
});
