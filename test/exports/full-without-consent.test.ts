// Full exports without member consent (export_type full_without_consent, FL 449): only where the
// organization's owner_full_content_access is on (the server administrator's setting; off in the
// development organization), refused before the weekly limit is counted; the archive then holds
// every channel, every direct message and everyone's settings, consent or not.
import { beforeEach, describe, expect, it } from 'vitest';
import { serverResetPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { download } from '../helpers/uploads.js';
import { untar } from '../helpers/tar.js';
import { ControlClient } from '../../src/control/client.js';
import { storeSettings } from '../../src/domain/realm/setting-values.js';

let t: TestServer;
let control: ControlClient;
serverResetPerTest((server) => {
  t = server;
  control = new ControlClient(server.base);
});
beforeEach(async () => {
  await control.clock.real();
});

const store = () => t.server.world.store;
const notEnabled = error('BAD_REQUEST', 'Full exports without member consent are not enabled for this organization.');
const full = (who = 'iago') => t.as(who).post('/export/realm', { export_type: 'full_without_consent' });

describe('POST /export/realm with full_without_consent', () => {
  it("is refused while the organization's owner_full_content_access is off, before the weekly limit counts", async () => {
    expect((await full()).body).toEqual(notEnabled);
    for (let i = 0; i < 5; i++) expect((await t.as('iago').post('/export/realm', {})).status).toBe(200);
    // Five this week: the setting is still what the caller hears of first.
    expect((await full()).body).toEqual(notEnabled);
    expect((await t.as('iago').post('/export/realm', {})).body).toEqual(error('BAD_REQUEST', 'Exceeded rate limit.'));
    // Members are refused as for any export.
    expect((await full('hamlet')).body).toEqual(
      error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'),
    );
  });

  it("with owner_full_content_access: recorded, announced, and its archive holds everyone's private data", async () => {
    storeSettings(store(), { owner_full_content_access: true });
    const queue = await registerQueue(t, 'desdemona', ['realm_export']);
    // Nobody consented: a standard export would be refused, this one is not.
    const messageCount = store().messages.all().length; // the data as at the request
    const r = await full();
    expect(r.body).toEqual({ result: 'success', msg: '', id: 1 });
    expect(store().realm.exports![0]).toMatchObject({ id: 1, type: 3, status: 'requested' });
    await control.clock.advance(10_000);
    const [done] = (await t.as('iago').get('/export/realm')).body.exports;
    expect(done).toMatchObject({ id: 1, pending: false, export_type: 'full_without_consent' });
    const events = await eventsOf(t, 'desdemona', queue);
    expect(events.map((e) => e.exports.map((x: { export_type: string }) => x.export_type))).toEqual([
      ['full_without_consent'],
      ['full_without_consent'],
    ]);

    const files = await untar((await download(t, null, new URL(done.export_url).pathname)).bytes);
    const file = (name: string) => JSON.parse(Object.entries(files).find(([n]) => n.endsWith(name))![1]);
    const realmJson = file('realm.json');
    expect(realmJson.zerver_stream.length).toBe(store().streams.all().length);
    expect(realmJson.zerver_userprofile.every((u: { settings?: unknown }) => u.settings !== undefined)).toBe(true);
    const messages = file('messages-000001.json').zerver_message;
    expect(messages.length).toBe(messageCount);
    expect(messages.some((m: { type: string }) => m.type === 'private')).toBe(true);
  });
});
