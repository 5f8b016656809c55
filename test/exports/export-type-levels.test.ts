// export_type by feature level: an integer (1 public, 2 standard) from 304 to 448, its name
// (`public`, `full_with_consent`) from 449, in the POST /export/realm parameter, GET /export/realm
// and the realm_export event of each queue's level (the real API changelog, feature level 449).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';
import { storeSettings } from '../../src/domain/realm/setting-values.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
  // A standard export needs an owner who consented.
  await t.as('desdemona').patch('/settings', { allow_private_data_export: true });
});

const at = (level: number, who = 'iago') => t.as(who, { 'X-Mock-Feature-Level': String(level) });
const typesAt = async (level: number) =>
  ((await at(level).get('/export/realm')).body.exports as Array<{ export_type: unknown }>).map((e) => e.export_type);

describe('export_type', () => {
  it('is taken by code before 449 and by name from it; the other form is refused', async () => {
    expect((await at(448).post('/export/realm', { export_type: 2 })).status).toBe(200);
    expect((await at(449).post('/export/realm', { export_type: 'full_with_consent' })).status).toBe(200);
    expect((await at(449).post('/export/realm', { export_type: 'public' })).status).toBe(200);
    expect((await at(448).post('/export/realm', { export_type: 'public' })).body).toEqual(
      error('BAD_REQUEST', 'Invalid export_type'),
    );
    expect((await at(449).post('/export/realm', { export_type: 1 })).body).toEqual(
      error('BAD_REQUEST', 'Invalid export_type'),
    );
    // Left out, it is a public export at every level.
    expect((await at(448).post('/export/realm', {})).status).toBe(200);
    expect(await typesAt(448)).toEqual([2, 2, 1, 1]);
    expect(await typesAt(449)).toEqual(['full_with_consent', 'full_with_consent', 'public', 'public']);
  });

  it('takes full_without_consent from 449 only', async () => {
    storeSettings(t.server.world.store, { owner_full_content_access: true });
    expect((await at(448).post('/export/realm', { export_type: 'full_without_consent' })).body).toEqual(
      error('BAD_REQUEST', 'Invalid export_type'),
    );
    expect((await at(449).post('/export/realm', { export_type: 'full_without_consent' })).status).toBe(200);
    expect(await typesAt(449)).toEqual(['full_without_consent']);
  });

  it('comes in the form of the level each queue registered at in realm_export events', async () => {
    const old = await registerQueue(t, 'desdemona', ['realm_export'], {});
    const oldAt448 = (
      await at(448, 'desdemona').post('/register', { event_types: ['realm_export'], fetch_event_types: [] })
    ).body.queue_id;
    const newest = await registerQueue(t, 'iago', ['realm_export']);
    expect((await t.as('iago').post('/export/realm', { export_type: 'full_with_consent' })).status).toBe(200);
    const typesIn = async (who: string, queue: string) =>
      (await eventsOf(t, who, queue)).map((e) => e.exports.map((x: { export_type: unknown }) => x.export_type));
    expect(await typesIn('desdemona', oldAt448)).toEqual([[2]]);
    expect(await typesIn('desdemona', old)).toEqual([['full_with_consent']]);
    expect(await typesIn('iago', newest)).toEqual([['full_with_consent']]);
  });
});
