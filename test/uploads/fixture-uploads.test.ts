// The default fixture's uploads: a PNG linked from message 6 (Denmark) and a text file linked from
// message 20 (the private core team channel), so that a first start has files to show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { download, TINY_PNG } from '../helpers/uploads.js';
import { renderMarkdown } from '../../src/domain/render/markdown.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const HARBOUR = '/user_uploads/2/4e/b8fJzLq1sW3kQ0x9tVnDc2aH/harbour.png';
const NOTES = '/user_uploads/2/9c/Rr5XoTg2mYpL7cUa4eNf0wKd/release-notes.txt';
const NOTES_TEXT = 'Release notes (draft)\n\n- Faster message loading\n- Image previews for uploads\n';

describe("the fixture's uploads", () => {
  it('each owner lists its file with the message that links it', async () => {
    const store = t.server.world.store;
    const prospero = await t.as('prospero').get('/attachments');
    expect(prospero.status).toBe(200);
    expect(prospero.body.attachments).toEqual([
      {
        id: 1,
        name: 'harbour.png',
        path_id: HARBOUR.slice('/user_uploads/'.length),
        size: 70,
        create_time: 1793299554000,
        messages: [{ id: 6, date_sent: store.messages.get(6)!.timestamp * 1000 }],
      },
    ]);
    expect(prospero.body.upload_space_used).toBe(70 + NOTES_TEXT.length);
    const hamlet = await t.as('hamlet').get('/attachments');
    expect(hamlet.body.attachments).toEqual([
      {
        id: 2,
        name: 'release-notes.txt',
        path_id: NOTES.slice('/user_uploads/'.length),
        size: NOTES_TEXT.length,
        create_time: 1794366688000,
        messages: [{ id: 20, date_sent: store.messages.get(20)!.timestamp * 1000 }],
      },
    ]);
  });

  it('readers of the linking messages download the files; others are refused', async () => {
    const png = await download(t, 'othello', HARBOUR);
    expect(png.status).toBe(200);
    expect(png.type).toBe('image/png');
    expect(png.bytes.equals(TINY_PNG)).toBe(true);
    const notes = await download(t, 'iago', NOTES);
    expect(notes.status).toBe(200);
    expect(notes.bytes.toString('utf8')).toBe(NOTES_TEXT);
    // Othello is not in the core team channel.
    expect(await download(t, 'othello', NOTES)).toMatchObject({
      status: 403,
      body: error('BAD_REQUEST', 'You are not authorized to view this file.'),
    });
  });

  it('the messages show the image preview and the file link, as the renderer makes them', async () => {
    const store = t.server.world.store;
    const six = await t.as('hamlet').get('/messages/6', {});
    expect(six.body.message.content).toBe(
      `<p>A photo of the harbour: <a href="${HARBOUR}">harbour.png</a></p>\n<div class="message_inline_image"><a href="${HARBOUR}" title="harbour.png"><img data-original-dimensions="1x1" src="${HARBOUR}"></a></div>`,
    );
    const m = store.messages.get(6)!;
    expect(renderMarkdown(store, m.content, store.users.get(m.sender_id)!)).toBe(m.rendered_content);
    const twenty = await t.as('iago').get('/messages/20', {});
    expect(twenty.body.message.content).toContain(` <a href="${NOTES}">release-notes.txt</a> cc `);
    expect(twenty.body.message.content).not.toContain('message_inline_image');
  });
});
