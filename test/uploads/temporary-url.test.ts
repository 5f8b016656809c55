// GET /api/v1/user_uploads/{realm_id_str}/{filename}: a URL that serves the file without
// credentials for 60 seconds of the mock's clock, to whoever may see the file; and that URL's
// download, /user_uploads/temporary/{token}/{filename}, with the real server's refusals.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverResetPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { sendToChannel } from '../helpers/messages.js';
import { download, temporaryUrlOf, TINY_PNG, upload } from '../helpers/uploads.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
serverResetPerTest((server) => {
  t = server;
  control = new ControlClient(server.base);
});
beforeEach(async () => {
  await control.clock.freeze();
});
afterEach(async () => {
  await control.clock.real();
});

const TEMPORARY = /^\/user_uploads\/temporary\/([0-9A-F]+)\/diagram\.png$/;

async function uploadedDiagram(): Promise<string> {
  const up = await upload(t, 'hamlet', [{ name: 'diagram.png', bytes: TINY_PNG, type: 'image/png' }]);
  expect(up.status).toBe(200);
  return up.body.url;
}

describe('GET /api/v1/user_uploads/{realm_id_str}/{filename}', () => {
  it('answers a temporary URL whose token is the signed path and time; anyone downloads the same bytes with it', async () => {
    const url = await uploadedDiagram();
    const r = await temporaryUrlOf(t, 'hamlet', url);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(TEMPORARY) });
    // The real server's form: base 16 of "<path id>:<base 62 seconds>:<signature>".
    const [, token] = TEMPORARY.exec(r.body.url)!;
    const seconds = Math.floor((await control.clock.get()).now_ms / 1000);
    const [pathId, time, signature] = Buffer.from(token, 'hex')
      .toString('utf8')
      .split(/:(?=[^:]*:[^:]*$)|:(?=[^:]*$)/);
    expect(pathId).toBe(url.slice('/user_uploads/'.length));
    expect(time).toMatch(/^[0-9A-Za-z]+$/);
    expect(
      [...time].reduce(
        (n, c) => n * 62 + '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.indexOf(c),
        0,
      ),
    ).toBe(seconds);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const file = await download(t, null, r.body.url);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(TINY_PNG)).toBe(true);
    expect(file.type).toBe('image/png');
    expect(file.disposition).toBe("inline; filename*=UTF-8''diagram.png");
  });

  it('expires 60 seconds after the second it was made in, on the mock clock', async () => {
    // The token keeps whole seconds (as the real server's): start on one, so that 60 s are exactly its life.
    await control.clock.set(Math.ceil((await control.clock.get()).now_ms / 1000) * 1000 + 1000);
    const url = await uploadedDiagram();
    const { body } = await temporaryUrlOf(t, 'hamlet', url);
    await control.clock.advance(60_000);
    expect((await download(t, null, body.url)).status).toBe(200);
    await control.clock.advance(1);
    const expired = await download(t, null, body.url);
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual(error('BAD_REQUEST', 'Invalid token'));
    // The file is still there: a new URL serves it again.
    const again = await temporaryUrlOf(t, 'hamlet', url);
    expect((await download(t, null, again.body.url)).bytes.equals(TINY_PNG)).toBe(true);
  });

  it('is refused to a user who may not see the file, and for a file that does not exist; needs credentials', async () => {
    const url = await uploadedDiagram();
    expect(await temporaryUrlOf(t, 'othello', url)).toMatchObject({
      status: 403,
      body: error('BAD_REQUEST', 'You are not authorized to view this file.'),
    });
    expect(await temporaryUrlOf(t, 'hamlet', '/user_uploads/2/ab/nothing/here.png')).toMatchObject({
      status: 404,
      body: error('BAD_REQUEST', 'File not found.'),
    });
    expect((await t.anonymous().get(url)).status).toBe(401);
    // Once a message in a public channel links it, every member may have one.
    await sendToChannel(t, 'hamlet', 'Denmark', 'pictures', `[diagram](${url})`);
    const othello = await temporaryUrlOf(t, 'othello', url);
    expect(othello.status).toBe(200);
    expect((await download(t, null, othello.body.url)).bytes.equals(TINY_PNG)).toBe(true);
    expect((await temporaryUrlOf(t, 'polonius', url)).status).toBe(403);
  });
});

describe('GET /user_uploads/temporary/{token}/{filename}', () => {
  it('refuses an altered token, a token in lower case, another file name, and the token of a deleted file', async () => {
    const url = await uploadedDiagram();
    const { body } = await temporaryUrlOf(t, 'hamlet', url);
    const [, token] = TEMPORARY.exec(body.url)!;
    const invalidToken = error('BAD_REQUEST', 'Invalid token');
    // One character of the signature changed.
    const altered = token.slice(0, -2) + (token.endsWith('41') ? '42' : '41');
    expect(await download(t, null, `/user_uploads/temporary/${altered}/diagram.png`)).toMatchObject({
      status: 400,
      body: invalidToken,
    });
    expect(await download(t, null, `/user_uploads/temporary/${token.toLowerCase()}/diagram.png`)).toMatchObject({
      status: 400,
      body: invalidToken,
    });
    expect(await download(t, null, `/user_uploads/temporary/${token}/other.png`)).toMatchObject({
      status: 400,
      body: error('BAD_REQUEST', 'Invalid filename'),
    });
    const attachment = t.server.world.store.attachments.by('path_id', url.slice('/user_uploads/'.length))!;
    expect((await t.as('hamlet').delete(`/attachments/${attachment.id}`)).status).toBe(200);
    expect(await download(t, null, body.url)).toMatchObject({ status: 400, body: invalidToken });
  });

  it("serves only the world that signed it: another sandbox's key does not match", async () => {
    const { body } = await temporaryUrlOf(t, 'hamlet', await uploadedDiagram());
    const res = await fetch(`${t.base}/sandbox/elsewhere${body.url}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(error('BAD_REQUEST', 'Invalid token'));
  });
});
