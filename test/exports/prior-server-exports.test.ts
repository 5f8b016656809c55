// Exports carried across a realm import (export_from_prior_server, FL 499 in 12.x and 506 in
// 13.0): listed with the field true and no URL, and refused on deletion as if deleted already.
// Below 499 the field is absent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import type { RealmExportRow } from '../../src/store/state.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
  const imported: RealmExportRow = {
    id: 1,
    type: 1,
    acting_user_id: t.user('iago').user_id,
    status: 'succeeded',
    date_requested: 1700000000,
    date_succeeded: 1700000060,
    date_failed: null,
    date_deleted: null,
    path: 'abcdef/zulip-export-old.tar.gz',
    content_base64: null,
    from_prior_server: true,
  };
  t.server.world.store.updateRealm({ exports: [imported] });
});
afterEach(async () => {
  await t.close();
});

const at = (level: number) => t.as('iago', { 'X-Mock-Feature-Level': String(level) });

describe('exports from a prior server', () => {
  it('are listed with export_from_prior_server and no URL, and cannot be deleted', async () => {
    const listed = (await t.as('iago').get('/export/realm')).body.exports;
    expect(listed).toEqual([
      {
        id: 1,
        acting_user_id: t.user('iago').user_id,
        export_time: 1700000000,
        export_url: null,
        deleted_timestamp: null,
        failed_timestamp: null,
        pending: false,
        export_type: 'public',
        export_from_prior_server: true,
      },
    ]);
    const r = await t.as('iago').delete('/export/realm/1');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Export already deleted'));
    expect(t.server.world.store.realm.exports![0].status).toBe('succeeded');
  });

  it('carry the field from 499 only', async () => {
    expect((await at(498).get('/export/realm')).body.exports[0]).not.toHaveProperty('export_from_prior_server');
    expect((await at(499).get('/export/realm')).body.exports[0].export_from_prior_server).toBe(true);
  });
});
