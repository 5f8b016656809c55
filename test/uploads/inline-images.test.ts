// Messages that link an uploaded image show the real server's inline preview block after the
// paragraph, or at the end of a tight list item; other files, quotes and repeated links get none. The mock makes no thumbnails, so the
// preview's <img> loads the original file.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sendToChannel } from '../helpers/messages.js';
import { readMessage } from '../helpers/read-back.js';
import { download, TINY_PNG, upload } from '../helpers/uploads.js';
import { ControlClient } from '../../src/control/client.js';

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

/** A 3x2 GIF header (the rest of the file does not matter for the preview). */
const GIF_3X2 = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([3, 0, 2, 0, 0, 0, 0]),
  Buffer.from(';', 'latin1'),
]);

const preview = (url: string, title: string | null, dims = '1x1') =>
  `<div class="message_inline_image"><a href="${url}"${title === null ? '' : ` title="${title}"`}><img data-original-dimensions="${dims}" src="${url}"></a></div>`;

async function rendered(content: string): Promise<string> {
  const id = await sendToChannel(t, 'hamlet', 'Denmark', 'pictures', content);
  return (await readMessage(t, 'iago', id, { apply_markdown: true })).content;
}

describe('inline previews of uploaded images', () => {
  it('a named link to an uploaded image keeps its paragraph and gains the preview block', async () => {
    const { body } = await upload(t, 'hamlet', [{ name: 'diagram.png', bytes: TINY_PNG, type: 'image/png' }]);
    expect(await rendered(`[diagram.png](${body.url})`)).toBe(
      `<p><a href="${body.url}">diagram.png</a></p>\n${preview(body.url, 'diagram.png')}`,
    );
    // The preview's image is the file itself, which readers of the message may download.
    expect((await download(t, 'iago', body.url)).bytes.equals(TINY_PNG)).toBe(true);
  });

  it('previews follow their paragraph in link order, each URL once, with the size read from the file', async () => {
    const a = (await upload(t, 'hamlet', [{ name: 'a.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    const b = (await upload(t, 'hamlet', [{ name: 'b.gif', bytes: GIF_3X2, type: 'image/gif' }])).body.url;
    expect(await rendered(`See [a](${a}) and [b](${b}) and [a again](${a})\n\nafter`)).toBe(
      `<p>See <a href="${a}">a</a> and <a href="${b}">b</a> and <a href="${a}">a again</a></p>\n${preview(a, 'a')}\n${preview(b, 'b', '3x2')}\n<p>after</p>`,
    );
  });

  it('no preview for a file that is not an image, an image type that does not parse, or a link inside a quote', async () => {
    const txt = (await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: Buffer.from('hello'), type: 'text/plain' }]))
      .body.url;
    const bad = (
      await upload(t, 'hamlet', [{ name: 'broken.png', bytes: Buffer.from('not a png'), type: 'image/png' }])
    ).body.url;
    const img = (await upload(t, 'hamlet', [{ name: 'pic.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    expect(await rendered(`[notes.txt](${txt})`)).toBe(`<p><a href="${txt}">notes.txt</a></p>`);
    expect(await rendered(`[broken.png](${bad})`)).toBe(`<p><a href="${bad}">broken.png</a></p>`);
    expect(await rendered(`> [pic.png](${img})`)).toBe(
      `<blockquote>\n<p><a href="${img}">pic.png</a></p>\n</blockquote>`,
    );
  });

  it('a link to a file that does not exist is an ordinary link', async () => {
    const url = '/user_uploads/2/ab/doesnotexist/x.png';
    expect(await rendered(`[x.png](${url})`)).toBe(`<p><a href="${url}">x.png</a></p>`);
  });

  it('more than 24 distinct links in a message: no previews at all', async () => {
    const img = (await upload(t, 'hamlet', [{ name: 'pic.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    const others = Array.from({ length: 24 }, (_, i) => `[l${i}](https://example.com/${i})`).join(' ');
    const html = await rendered(`[pic.png](${img}) ${others}`);
    expect(html).not.toContain('message_inline_image');
    const fewer = Array.from({ length: 23 }, (_, i) => `[l${i}](https://example.com/${i})`).join(' ');
    expect(await rendered(`[pic.png](${img}) ${fewer}`)).toContain(preview(img, 'pic.png'));
  });

  // The real server's fixture bulleted_list_inlining: in a tight item the block is the item's last child.
  it('in a tight list item the preview goes inside the item, after its text', async () => {
    const url = (await upload(t, 'hamlet', [{ name: 'pic.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    expect(await rendered(`* [pic.png](${url})`)).toBe(
      `<ul>\n<li><a href="${url}">pic.png</a>${preview(url, 'pic.png')}</li>\n</ul>`,
    );
    expect(await rendered(`* Before?\n* Here. [${url}](${url})\n* After!`)).toBe(
      `<ul>\n<li>Before?</li>\n<li>Here. <a href="${url}">${url}</a>${preview(url, null)}</li>\n<li>After!</li>\n</ul>`,
    );
  });

  it("an item that is only the bare URL keeps only the preview; a nested list comes before the item's preview", async () => {
    const a = (await upload(t, 'hamlet', [{ name: 'a.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    const b = (await upload(t, 'hamlet', [{ name: 'b.gif', bytes: GIF_3X2, type: 'image/gif' }])).body.url;
    expect(await rendered(`* [${a}](${a})`)).toBe(`<ul>\n<li>${preview(a, null)}</li>\n</ul>`);
    expect(await rendered(`* [a](${a})\n  * [b](${b})`)).toBe(
      `<ul>\n<li><a href="${a}">a</a><ul>\n<li><a href="${b}">b</a>${preview(b, 'b', '3x2')}</li>\n</ul>\n${preview(a, 'a')}</li>\n</ul>`,
    );
  });

  it("list items share the message's rules: each URL once, none inside a quote", async () => {
    const url = (await upload(t, 'hamlet', [{ name: 'pic.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    expect(await rendered(`[pic](${url})\n\n* [again](${url})`)).toBe(
      `<p><a href="${url}">pic</a></p>\n${preview(url, 'pic')}\n<ul>\n<li><a href="${url}">again</a></li>\n</ul>`,
    );
    expect(await rendered(`> * [pic](${url})`)).toBe(
      `<blockquote>\n<ul>\n<li><a href="${url}">pic</a></li>\n</ul>\n</blockquote>`,
    );
  });
});
