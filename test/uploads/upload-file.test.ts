// POST /user_uploads and downloading the file: the answer by level, the size limit, who may
// download (the uploader; readers of a message that links it), attachment events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
import { readMessage } from '../helpers/read-back.js';
import { download, TINY_PNG, upload } from '../helpers/uploads.js';
import { ControlClient } from '../../src/control/client.js';
import { MAX_FILE_UPLOAD_SIZE_MIB } from '../../src/upload-limits.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
});

const store = () => t.server.world.store;
const URL_SHAPE = /^\/user_uploads\/2\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/diagram\.png$/;

describe('POST /user_uploads', () => {
  it('stores the file and answers its URL; the uploader downloads the same bytes with its type', async () => {
    const q = await registerQueue(t, 'hamlet', ['attachment']);
    const r = await upload(t, 'hamlet', [{ name: 'diagram.png', bytes: TINY_PNG, type: 'image/png' }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      uri: r.body.url,
      url: expect.stringMatching(URL_SHAPE),
      filename: 'diagram.png',
    });
    const file = await download(t, 'hamlet', r.body.url);
    expect(file.status).toBe(200);
    expect(file.type).toBe('image/png');
    expect(file.disposition).toBe("inline; filename*=UTF-8''diagram.png");
    expect(file.bytes.equals(TINY_PNG)).toBe(true);
    const row = store().attachments.by('path_id', r.body.url.slice('/user_uploads/'.length))!;
    expect(row).toMatchObject({
      name: 'diagram.png',
      owner_id: t.user('hamlet').user_id,
      size: TINY_PNG.length,
      message_ids: [],
    });
    const events = await eventsOf(t, 'hamlet', q);
    expect(events).toEqual([
      {
        type: 'attachment',
        op: 'add',
        id: 0,
        upload_space_used: expect.any(Number),
        attachment: {
          id: row.id,
          name: 'diagram.png',
          path_id: row.path_id,
          size: TINY_PNG.length,
          create_time: row.create_time,
          messages: [],
        },
      },
    ]);
  });

  it('answers only uri before feature level 272, and no filename before 285', async () => {
    const at = async (level: number) => {
      const u = t.user('hamlet');
      const form = new FormData();
      form.append('file', new Blob(['hello']), 'notes.txt');
      const res = await fetch(`${t.base}/api/v1/user_uploads`, {
        method: 'POST',
        body: form,
        headers: {
          authorization: `Basic ${Buffer.from(`${u.email}:${u.api_key}`).toString('base64')}`,
          'x-mock-feature-level': String(level),
        },
      });
      return Object.keys(await res.json()).sort();
    };
    expect(await at(271)).toEqual(['msg', 'result', 'uri']);
    expect(await at(284)).toEqual(['msg', 'result', 'uri', 'url']);
    expect(await at(285)).toEqual(['filename', 'msg', 'result', 'uri', 'url']);
  });

  it('cleans the stored name as the real server does', async () => {
    const r = await upload(t, 'hamlet', [{ name: 'my report (final)!.txt', bytes: Buffer.from('x') }]);
    expect(r.body.filename).toBe('my-report-final.txt');
    expect((await download(t, 'hamlet', r.body.url)).type).toBe('text/plain');
  });

  it('refuses a request without a file, with two files, and a file past max_file_upload_size_mib', async () => {
    const none = await t.as('hamlet').post('/user_uploads', {});
    expect(none.status).toBe(400);
    expect(none.body).toEqual(error('BAD_REQUEST', 'You must specify a file to upload'));
    const two = await upload(t, 'hamlet', [
      { name: 'a.txt', bytes: Buffer.from('a') },
      { name: 'b.txt', bytes: Buffer.from('b') },
    ]);
    expect(two.body).toEqual(error('BAD_REQUEST', 'You may only upload one file at a time'));
    // A third file is refused while parsing: one request never holds more than two files.
    const three = await upload(
      t,
      'hamlet',
      ['a', 'b', 'c'].map((n) => ({ name: `${n}.txt`, bytes: Buffer.from(n) })),
    );
    expect(three.status).toBe(400);
    expect(three.body.result).toBe('error');
    const big = await upload(t, 'hamlet', [
      { name: 'big.bin', bytes: Buffer.alloc(MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024 + 1) },
    ]);
    expect(big.status).toBe(400);
    expect(big.body).toEqual(
      error(
        'BAD_REQUEST',
        `File is larger than this server's configured maximum upload size (${MAX_FILE_UPLOAD_SIZE_MIB} MiB).`,
      ),
    );
    expect(
      store().attachments.filter((a) => a.owner_id === t.user('hamlet').user_id && a.message_ids.length === 0),
    ).toEqual([]);
  });

  it('needs credentials', async () => {
    const r = await t.anonymous().post('/user_uploads', {});
    expect(r.status).toBe(401);
  });
});

describe('GET /user_uploads/{realm_id_str}/{filename}', () => {
  it('another subscriber downloads the same bytes once a message in a private channel links it; others are refused', async () => {
    const up = await upload(t, 'hamlet', [{ name: 'diagram.png', bytes: TINY_PNG, type: 'image/png' }]);
    const refusal = error('BAD_REQUEST', 'You are not authorized to view this file.');
    // Before any message links it only the uploader may see it.
    expect(await download(t, 'iago', up.body.url)).toMatchObject({ status: 403, body: refusal });
    const q = await registerQueue(t, 'hamlet', ['attachment']);
    const id = await sendToChannel(t, 'hamlet', 'core team', 'design', `[diagram.png](${up.body.url})`);
    const message = await readMessage(t, 'iago', id);
    expect(message.content).toContain(`[diagram.png](${up.body.url})`);
    expect(store().messages.get(id)!.rendered_content).toContain(`href="${up.body.url}"`);
    const got = await download(t, 'iago', up.body.url);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(TINY_PNG)).toBe(true);
    expect(got.type).toBe('image/png');
    // Othello is not subscribed to the private channel.
    expect(await download(t, 'othello', up.body.url)).toMatchObject({ status: 403, body: refusal });
    const row = store().attachments.by('path_id', up.body.url.slice('/user_uploads/'.length))!;
    expect(row.message_ids).toEqual([id]);
    const sent = store().messages.get(id)!;
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      expect.objectContaining({
        type: 'attachment',
        op: 'update',
        attachment: expect.objectContaining({ id: row.id, messages: [{ id, date_sent: sent.timestamp * 1000 }] }),
      }),
    ]);
  });

  it('a link in a public channel opens the file to every member but not to guests', async () => {
    const up = await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: Buffer.from('minutes'), type: 'text/plain' }]);
    await sendToChannel(t, 'hamlet', 'Denmark', 'minutes', `[notes.txt](${up.body.url})`);
    expect((await download(t, 'othello', up.body.url)).bytes.toString()).toBe('minutes');
    // Plain text is among the real server's inline types.
    expect((await download(t, 'othello', up.body.url)).disposition).toBe("inline; filename*=UTF-8''notes.txt");
    expect((await download(t, 'polonius', up.body.url)).status).toBe(403);
  });

  it('a direct message opens the file to its recipients', async () => {
    const up = await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: Buffer.from('for you') }]);
    await sendMessage(t, 'hamlet', {
      type: 'private',
      to: JSON.stringify([t.user('cordelia').user_id]),
      content: `[notes](${up.body.url})`,
    });
    expect((await download(t, 'cordelia', up.body.url)).status).toBe(200);
    expect((await download(t, 'othello', up.body.url)).status).toBe(403);
  });

  it('answers 404 for a file that does not exist and 401 without credentials', async () => {
    const missing = await download(t, 'hamlet', '/user_uploads/2/ab/nothing/here.png');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(error('BAD_REQUEST', 'File not found.'));
    const up = await upload(t, 'hamlet', [{ name: 'a.txt', bytes: Buffer.from('a') }]);
    expect((await download(t, null, up.body.url)).status).toBe(401);
  });
});
