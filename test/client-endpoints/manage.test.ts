// The read and delete sides of what the spec creates: scheduled messages (GET, PATCH, DELETE),
// reminders and saved snippets (GET, DELETE), plus GET /user_groups and GET /realm/emoji.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError, streamId, watchEvents } from '../subscriptions/read-back.js';

let t: TestServer;
beforeEach(async () => { t = await startTestServer(); });
afterEach(async () => { await t.close(); });

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;
const later = () => t.server.clock.now() + 3600;

describe('GET /scheduled_messages', () => {
  it('lists the caller\'s unsent scheduled messages only', async () => {
    const r = await t.as('hamlet').get('/scheduled_messages');
    expect(r.status).toBe(200);
    expect(r.body.scheduled_messages).toEqual([{
      scheduled_message_id: 1, type: 'stream', to: streamId(t, 'Verona'), topic: 'greetings', content: 'Happy **new year**, everyone!',
      rendered_content: '<p>Happy <strong>new year</strong>, everyone!</p>', scheduled_delivery_timestamp: 1798761600, failed: false,
    }]);
    const iago = await t.as('iago').get('/scheduled_messages');
    expect(iago.body.scheduled_messages.map((m: any) => m.scheduled_message_id)).toEqual([2]);
    expect(iago.body.scheduled_messages[0]).not.toHaveProperty('topic');
  });

  it('includes what the caller schedules, ordered by delivery time', async () => {
    const made = await t.as('hamlet').post('/scheduled_messages', { type: 'direct', to: [id('othello')], content: 'soon', scheduled_delivery_timestamp: later() });
    const list = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(list.map((m: any) => m.scheduled_message_id)).toEqual([made.body.scheduled_message_id, 1]);
  });
});

describe('DELETE /scheduled_messages/{id}', () => {
  it('unschedules the message and tells the owner\'s clients', async () => {
    const seen = watchEvents(t);
    expect((await t.as('hamlet').delete('/scheduled_messages/1')).status).toBe(200);
    expect((await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: 1 }]);
    expect(seen[0].users).toEqual([id('hamlet')]);
    expectError(await t.as('hamlet').delete('/scheduled_messages/1'), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
  });

  it('answers 404 for another user\'s scheduled message', async () => {
    expectError(await t.as('iago').delete('/scheduled_messages/1'), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
    expect(store().scheduledMessages.get(1)).toBeDefined();
  });
});

describe('PATCH /scheduled_messages/{id}', () => {
  it('changes the content and time, keeps the rest, and sends an update event', async () => {
    const seen = watchEvents(t);
    const when = later();
    expect((await t.as('hamlet').patch('/scheduled_messages/1', { content: 'Happy *new* year', scheduled_delivery_timestamp: when })).status).toBe(200);
    const [msg] = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(msg).toMatchObject({ scheduled_message_id: 1, type: 'stream', topic: 'greetings', content: 'Happy *new* year', rendered_content: '<p>Happy <em>new</em> year</p>', scheduled_delivery_timestamp: when });
    expect(seen.map((s) => s.event)).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: msg }]);
  });

  it('turns a channel message into a direct message and back', async () => {
    await t.as('hamlet').patch('/scheduled_messages/1', { type: 'direct', to: [id('othello')] });
    let [msg] = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(msg).toMatchObject({ type: 'private', to: [id('othello')] });
    expect(msg).not.toHaveProperty('topic');
    await t.as('hamlet').patch('/scheduled_messages/1', { type: 'stream', to: streamId(t, 'Denmark'), topic: 'plans' });
    [msg] = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(msg).toMatchObject({ type: 'stream', to: streamId(t, 'Denmark'), topic: 'plans' });
  });

  it('clears failed when a failed message is edited', async () => {
    store().scheduledMessages.update(store().scheduledMessages.get(1)!, { failed: true });
    await t.as('hamlet').patch('/scheduled_messages/1', { scheduled_delivery_timestamp: later() });
    expect((await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages[0].failed).toBe(false);
  });

  it('refuses an empty change, a type without recipients, a channel type without topic and a past time', async () => {
    expectError(await t.as('hamlet').patch('/scheduled_messages/1', {}), 400, 'BAD_REQUEST', 'Nothing to change');
    expectError(await t.as('hamlet').patch('/scheduled_messages/1', { type: 'direct' }), 400, 'BAD_REQUEST', 'Recipient required when updating type of scheduled message.');
    expectError(await t.as('hamlet').patch('/scheduled_messages/1', { type: 'channel', to: 1 }), 400, 'BAD_REQUEST', 'Topic required when updating scheduled message type to channel.');
    expectError(await t.as('hamlet').patch('/scheduled_messages/1', { scheduled_delivery_timestamp: t.server.clock.now() - 10 }), 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.');
    expect(store().scheduledMessages.get(1)!.content).toBe('Happy **new year**, everyone!');
  });

  it('checks the result like a new message', async () => {
    expectError(await t.as('hamlet').patch('/scheduled_messages/1', { to: 99 }), 400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '99' does not exist");
    expect(store().scheduledMessages.get(1)!.to).toBe(streamId(t, 'Verona'));
  });

  it('answers 404 for another user\'s scheduled message', async () => {
    expectError(await t.as('iago').patch('/scheduled_messages/1', { content: 'mine now' }), 404, 'BAD_REQUEST', 'Scheduled message does not exist');
  });
});

describe('reminders', () => {
  it('GET /reminders lists the caller\'s pending reminders', async () => {
    const r = await t.as('hamlet').get('/reminders');
    expect(r.body.reminders).toHaveLength(1);
    expect(r.body.reminders[0]).toMatchObject({ reminder_id: 1, type: 'private', to: [id('hamlet')], reminder_target_message_id: 3, failed: false });
    expect((await t.as('iago').get('/reminders')).body.reminders).toEqual([]);
  });

  it('DELETE /reminders/{id} deletes it and tells the owner\'s clients', async () => {
    const seen = watchEvents(t);
    expect((await t.as('hamlet').delete('/reminders/1')).status).toBe(200);
    expect((await t.as('hamlet').get('/reminders')).body.reminders).toEqual([]);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'reminders', op: 'remove', reminder_id: 1 }]);
    expectError(await t.as('hamlet').delete('/reminders/1'), 404, 'BAD_REQUEST', 'Reminder does not exist');
  });

  it('answers 404 for another user\'s reminder', async () => {
    expectError(await t.as('iago').delete('/reminders/1'), 404, 'BAD_REQUEST', 'Reminder does not exist');
    expect(store().reminders.get(1)).toBeDefined();
  });

  it('exist from feature level 399', async () => {
    const old = t.as('hamlet', { 'X-Mock-Feature-Level': '398' });
    // POST /reminders exists from 381, so the path answers 405 to GET before 399.
    expect((await old.get('/reminders')).status).toBe(405);
    expectError(await old.delete('/reminders/1'), 404, 'BAD_REQUEST', 'Not Found');
  });
});

describe('saved snippets', () => {
  it('GET /saved_snippets lists the caller\'s snippets', async () => {
    const r = await t.as('hamlet').get('/saved_snippets');
    expect(r.body.saved_snippets).toEqual([{ id: 1, title: 'Greeting', content: 'Hello **everyone**!', date_created: 1794398400 }]);
  });

  it('DELETE /saved_snippets/{id} deletes it and tells the owner\'s clients', async () => {
    const seen = watchEvents(t);
    expect((await t.as('hamlet').delete('/saved_snippets/1')).status).toBe(200);
    expect((await t.as('hamlet').get('/saved_snippets')).body.saved_snippets).toEqual([]);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'saved_snippets', op: 'remove', saved_snippet_id: 1 }]);
  });

  it('answers 404 for another user\'s snippet and an unknown one', async () => {
    expectError(await t.as('iago').delete('/saved_snippets/1'), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
    expectError(await t.as('hamlet').delete('/saved_snippets/99'), 404, 'BAD_REQUEST', 'Saved snippet does not exist.');
    expect(store().savedSnippets.get(1)).toBeDefined();
  });
});

describe('GET /user_groups', () => {
  it('lists the active groups by ID, system groups included', async () => {
    const r = await t.as('hamlet').get('/user_groups');
    expect(r.status).toBe(200);
    const active = store().userGroups.filter((g) => !g.deactivated).map((g) => g.id).sort((a, b) => a - b);
    expect(r.body.user_groups.map((g: any) => g.id)).toEqual(active);
    const hamletcharacters = r.body.user_groups.find((g: any) => g.name === 'hamletcharacters');
    expect(hamletcharacters).toMatchObject({ members: [id('hamlet'), id('cordelia')], direct_subgroup_ids: [], is_system_group: false, deactivated: false });
  });

  it('adds deactivated groups with include_deactivated_groups', async () => {
    const r = await t.as('hamlet').get('/user_groups', { include_deactivated_groups: true });
    expect(r.body.user_groups.find((g: any) => g.name === 'support')).toMatchObject({ deactivated: true });
    expect(r.body.user_groups).toHaveLength(store().userGroups.size);
  });

  it('leaves deactivated users out of members', async () => {
    const group = store().userGroups.find((g) => g.name === 'hamletcharacters')!;
    store().userGroups.update(group, { direct_members: [...group.direct_members, id('ariel')] });
    const r = await t.as('hamlet').get('/user_groups');
    expect(r.body.user_groups.find((g: any) => g.id === group.id).members).toEqual([id('hamlet'), id('cordelia')]);
  });

  it('refuses guests', async () => {
    expectError(await t.as('polonius').get('/user_groups'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });
});

describe('GET /realm/emoji', () => {
  it('lists the custom emoji by ID, deactivated ones included', async () => {
    const r = await t.as('polonius').get('/realm/emoji');
    expect(r.body.emoji).toEqual({
      1: { id: '1', name: 'green_tick', source_url: '/user_avatars/2/emoji/images/1.png', deactivated: false, author_id: id('iago') },
      2: { id: '2', name: 'old_logo', source_url: '/user_avatars/2/emoji/images/2.png', deactivated: true, author_id: id('desdemona') },
    });
  });
});
