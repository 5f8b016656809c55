// Where uploaded files live: in the world's state (ARCHITECTURE.md, "Where state lives"), so a
// reset forgets them, a sandbox has only its own, and with --data they are kept across restarts
// until a reset, after which the data file no longer holds their bytes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { download, upload } from '../helpers/uploads.js';
import { ControlClient } from '../../src/control/client.js';
import { logFileOf } from '../../src/store/persist.js';

const notFound = error('BAD_REQUEST', 'File not found.');
/** Bytes no fixture file has, to look for in the data file. */
const MARKER = Buffer.from('teamchat-mock storage marker: this file must be forgotten by a reset');
const markerBase64 = MARKER.toString('base64');

describe('uploads in memory', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('are forgotten by a reset: the URL then answers 404', async () => {
    const up = await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: MARKER }]);
    expect((await download(t, 'hamlet', up.body.url)).bytes.equals(MARKER)).toBe(true);
    await new ControlClient(t.base).reset();
    expect(await download(t, 'hamlet', up.body.url)).toMatchObject({ status: 404, body: notFound });
  });

  it("belong to their sandbox: the default world does not serve them, and the sandbox's reset or drop forgets them", async () => {
    const sandbox = { 'X-Mock-Sandbox': 'files' };
    const control = new ControlClient(t.base).sandbox('files');
    const up = await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: MARKER }], sandbox);
    expect((await download(t, 'hamlet', up.body.url, sandbox)).bytes.equals(MARKER)).toBe(true);
    expect(await download(t, 'hamlet', up.body.url)).toMatchObject({ status: 404, body: notFound });
    await control.reset();
    expect(await download(t, 'hamlet', up.body.url, sandbox)).toMatchObject({ status: 404, body: notFound });

    const again = await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: MARKER }], sandbox);
    await control.sandboxes.drop('files');
    expect(await download(t, 'hamlet', again.body.url, sandbox)).toMatchObject({ status: 404, body: notFound });
  });
});

describe('uploads with --data', () => {
  it('are kept across a restart, and after a reset neither served nor in the data file', async () => {
    const data = path.join(mkdtempSync(path.join(tmpdir(), 'teamchat-uploads-')), 'state.json');
    const onDisk = () => readFileSync(data, 'utf8') + readFileSync(logFileOf(data), 'utf8');

    const first = await startTestServer({ data });
    const up = await upload(first, 'hamlet', [{ name: 'notes.txt', bytes: MARKER }]);
    expect(up.status).toBe(200);
    await first.close();
    expect(onDisk()).toContain(markerBase64);

    const second = await startTestServer({ data });
    expect((await download(second, 'hamlet', up.body.url)).bytes.equals(MARKER)).toBe(true);
    await new ControlClient(second.base).reset();
    await second.server.persister!.flushed();
    expect(onDisk()).not.toContain(markerBase64);
    await second.close();

    const third = await startTestServer({ data });
    expect(await download(third, 'hamlet', up.body.url)).toMatchObject({ status: 404, body: notFound });
    await third.close();
  });
});
