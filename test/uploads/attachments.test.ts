// GET /attachments, DELETE /attachments/{attachment_id}, and edits that unlink an upload
// (detached_uploads): the state read back and the attachment events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { sendToChannel } from '../helpers/messages.js';
import { download, upload } from '../helpers/uploads.js';
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

const store = () => t.server.world.store;
const spaceUsed = () =>
  store()
    .attachments.all()
    .reduce((n, a) => n + a.size, 0);

describe('GET /attachments', () => {
  it("lists the caller's uploads with the messages that link them, and the organization's space used", async () => {
    const up = await upload(t, 'hamlet', [{ name: 'plan.txt', bytes: Buffer.from('the plan') }]);
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'plans', `see [plan.txt](${up.body.url})`);
    const r = await t.as('hamlet').get('/attachments');
    expect(r.status).toBe(200);
    const row = store().attachments.by('path_id', up.body.url.slice('/user_uploads/'.length))!;
    expect(r.body.attachments).toContainEqual({
      id: row.id,
      name: 'plan.txt',
      path_id: row.path_id,
      size: 8,
      create_time: row.create_time,
      messages: [{ id, date_sent: store().messages.get(id)!.timestamp * 1000 }],
    });
    expect(r.body.upload_space_used).toBe(spaceUsed());
    const other = await t.as('othello').get('/attachments');
    expect(other.body.attachments.map((a: any) => a.id)).not.toContain(row.id);
  });
});

describe('DELETE /attachments/{attachment_id}', () => {
  it('the owner deletes the file: it is gone from the list and the URL, with a remove event', async () => {
    const up = await upload(t, 'hamlet', [{ name: 'old.txt', bytes: Buffer.from('old') }]);
    const row = store().attachments.by('path_id', up.body.url.slice('/user_uploads/'.length))!;
    const refused = await t.as('othello').delete(`/attachments/${row.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(error('BAD_REQUEST', 'Invalid attachment'));
    const q = await registerQueue(t, 'hamlet', ['attachment']);
    const r = await t.as('hamlet').delete(`/attachments/${row.id}`);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(store().attachments.get(row.id)).toBeUndefined();
    expect((await t.as('hamlet').get('/attachments')).body.attachments.map((a: any) => a.id)).not.toContain(row.id);
    expect((await download(t, 'hamlet', up.body.url)).status).toBe(404);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { type: 'attachment', op: 'remove', attachment: { id: row.id }, upload_space_used: spaceUsed(), id: 0 },
    ]);
  });
});

describe('PATCH /messages/{message_id} and uploads', () => {
  it('an edit that drops the only link answers the file as detached; one that adds a link attaches it', async () => {
    const up = await upload(t, 'hamlet', [{ name: 'draft.txt', bytes: Buffer.from('v1') }]);
    const row = store().attachments.by('path_id', up.body.url.slice('/user_uploads/'.length))!;
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'edits', `[draft.txt](${up.body.url})`);
    const dropped = await t.as('hamlet').patch(`/messages/${id}`, { content: 'no file any more' });
    expect(dropped.body).toEqual({
      result: 'success',
      msg: '',
      detached_uploads: [
        { id: row.id, name: 'draft.txt', path_id: row.path_id, size: 2, create_time: row.create_time, messages: [] },
      ],
    });
    expect(store().attachments.get(row.id)!.message_ids).toEqual([]);
    const again = await t.as('hamlet').patch(`/messages/${id}`, { content: `back: [draft.txt](${up.body.url})` });
    expect(again.body).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    expect(store().attachments.get(row.id)!.message_ids).toEqual([id]);
  });

  it('deleting the linking message leaves the file, linked to nothing', async () => {
    const up = await upload(t, 'hamlet', [{ name: 'x.txt', bytes: Buffer.from('x') }]);
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'gone', `[x.txt](${up.body.url})`);
    await t.as('hamlet').delete(`/messages/${id}`);
    const row = store().attachments.by('path_id', up.body.url.slice('/user_uploads/'.length))!;
    expect(row.message_ids).toEqual([]);
  });
});
