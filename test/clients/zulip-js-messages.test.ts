// The real JavaScript client against the message endpoints: fetch, read one, edit, flag, render,
// react, type and delete, with a second user's queue seeing the changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { zulipAs } from '../helpers/zulip-js.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const client = (who: string) => zulipAs(t, who);

describe('zulip-js and the message endpoints', () => {
  it('drives a session that another user sees as events', async () => {
    const hamlet = await client('hamlet');
    const othelloQ = await registerQueue(t, 'othello', [
      'update_message',
      'update_message_flags',
      'reaction',
      'typing',
      'delete_message',
    ]);
    const sent = await hamlet.messages.send({ type: 'stream', to: 'Denmark', topic: 'zulip-js', content: 'draft' });

    const latest = await hamlet.messages.retrieve({
      anchor: 'newest',
      num_before: 2,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
    });
    expect(latest).toMatchObject({ result: 'success', found_newest: true });
    expect(latest.messages.at(-1)).toMatchObject({ id: sent.id, content: '<p>draft</p>' });

    expect(await hamlet.messages.update({ message_id: sent.id, content: 'final' })).toMatchObject({
      result: 'success',
    });
    const one = await hamlet.messages.getById({ message_id: sent.id, apply_markdown: false });
    expect(one).toMatchObject({ result: 'success', message: { content: 'final' }, raw_content: 'final' });
    expect(await hamlet.messages.flags.add({ flag: 'starred', messages: [sent.id] })).toMatchObject({
      result: 'success',
      messages: [sent.id],
    });
    expect(await hamlet.messages.render({ content: '**bold**' })).toMatchObject({
      rendered: '<p><strong>bold</strong></p>',
    });

    const othello = await client('othello');
    expect(await othello.reactions.add({ message_id: sent.id, emoji_name: 'octopus' })).toMatchObject({
      result: 'success',
    });
    expect(await othello.reactions.remove({ message_id: sent.id, emoji_name: 'octopus' })).toMatchObject({
      result: 'success',
    });
    const to = [t.user('othello').user_id, t.user('iago').user_id];
    expect(await hamlet.typing.send({ to, op: 'start' })).toMatchObject({ result: 'success' });
    expect(await hamlet.messages.deleteById({ message_id: sent.id })).toMatchObject({ result: 'success' });

    const types = (await eventsOf(t, 'othello', othelloQ)).map((e) => `${e.type}${e.op ? `:${e.op}` : ''}`);
    expect(types).toEqual(['update_message', 'reaction:add', 'reaction:remove', 'typing:start', 'delete_message']);
  });
});
