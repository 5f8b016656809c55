// POST /reminders and the delivery of reminders as notification-bot direct messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, recordingSink, registerQueue } from '../helpers/events.js';
import { readBack } from '../helpers/read-back.js';
import { deliverDue } from '../../src/domain/scheduled-messages/delivery.js';
import { worldAt } from '../helpers/world.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const now = () => t.server.clock.now();
const remind = (who: string, params: Record<string, unknown>) => t.as(who).post('/reminders', params);

/** Message 3 of the fixture: othello in Denmark > test, mentioning hamlet. */
const denmarkMessage = () => store().messages.find((m) => m.content.startsWith('@**King Hamlet** can you look'))!;
/** A message of the private channel "core team", which othello cannot see. */
const coreTeamMessage = () =>
  store().messages.find((m) => m.stream_id === store().streams.by('name', 'core team')!.stream_id)!;

describe('POST /reminders', () => {
  it('schedules a reminder about a visible message and returns reminder_id', async () => {
    const q = await registerQueue(t, 'hamlet', ['reminders']);
    const at = now() + 10 * 86400;
    const message = denmarkMessage();
    const r = await remind('hamlet', {
      message_id: message.id,
      scheduled_delivery_timestamp: at,
      note: 'Look at this',
    });
    expect(r.status).toBe(200);
    const rid = r.body.reminder_id;
    expect(r.body).toEqual({ result: 'success', msg: '', reminder_id: rid });
    expect(store().reminders.get(rid)).toEqual({
      reminder_id: rid,
      user_id: t.user('hamlet').user_id,
      message_id: message.id,
      note: 'Look at this',
      scheduled_delivery_timestamp: at,
      delivered_message_id: null,
    });
    const [event] = await eventsOf(t, 'hamlet', q);
    expect(event).toMatchObject({
      type: 'reminders',
      op: 'add',
      reminders: [
        {
          reminder_id: rid,
          type: 'private',
          to: [t.user('hamlet').user_id],
          scheduled_delivery_timestamp: at,
          failed: false,
          reminder_target_message_id: message.id,
        },
      ],
    });
    expect(event.reminders[0].content).toContain('Note:\n > Look at this');
  });

  it('refuses messages the user cannot see, and unknown ones', async () => {
    for (const id of [coreTeamMessage().id, 99999]) {
      const r = await remind('othello', { message_id: id, scheduled_delivery_timestamp: now() + 60 });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    }
  });

  it('refuses a delivery time that is not in the future', async () => {
    const r = await remind('hamlet', { message_id: denmarkMessage().id, scheduled_delivery_timestamp: now() });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Scheduled delivery time must be in the future.'));
  });

  it('needs message_id and a delivery time, and limits the note to 1000 characters', async () => {
    const noMessage = await remind('hamlet', { scheduled_delivery_timestamp: now() + 60 });
    expect(noMessage.body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'message_id' argument", { var_name: 'message_id' }),
    );
    const noTime = await remind('hamlet', { message_id: denmarkMessage().id });
    expect(noTime.body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'scheduled_delivery_timestamp' argument", {
        var_name: 'scheduled_delivery_timestamp',
      }),
    );
    const before = store().reminders.size;
    const longNote = await remind('hamlet', {
      message_id: denmarkMessage().id,
      scheduled_delivery_timestamp: now() + 60,
      note: 'n'.repeat(1001),
    });
    expect(longNote.body).toEqual(error('BAD_REQUEST', 'note is too long (limit: 1000 characters)'));
    expect(store().reminders.size).toBe(before);
  });
});

describe('delivery of reminders', () => {
  it('sends the owner a notification-bot direct message linking the message, with the note', async () => {
    const message = denmarkMessage();
    const at = now() + 20 * 86400;
    const r = await remind('cordelia', {
      message_id: message.id,
      scheduled_delivery_timestamp: at,
      note: 'Reply to Othello',
    });
    const rid = r.body.reminder_id;
    const { sink, of } = recordingSink();
    deliverDue(worldAt(store(), sink, at - 1));
    expect(store().reminders.get(rid)!.delivered_message_id).toBeNull();

    deliverDue(worldAt(store(), sink, at));
    const delivered = store().reminders.get(rid)!.delivered_message_id!;
    const dm = store().messages.get(delivered)!;
    const cordelia = t.user('cordelia').user_id;
    expect(dm).toMatchObject({ sender_id: store().realm.notification_bot_id, type: 'private', timestamp: at });
    expect(dm.recipient_ids).toEqual([cordelia, store().realm.notification_bot_id].sort((a, b) => a - b));
    expect(dm.content).toBe(
      [
        `You requested a reminder for #**Denmark>test@${message.id}**. Note:`,
        ' > Reply to Othello',
        '',
        `@_**Othello, the Moor of Venice|${message.sender_id}** [said](${t.base}/#narrow/channel/1-Denmark/topic/test/near/${message.id}):`,
        '```quote',
        message.content,
        '```',
      ].join('\n'),
    );
    // (Earlier reminders of the fixture and of this file fall due at the same time.)
    expect(of('reminders').filter((s) => s.event.reminder_id === rid)).toEqual([
      { userId: cordelia, event: { type: 'reminders', op: 'remove', reminder_id: rid } },
    ]);
    const told = of('message')
      .filter((s) => (s.event.message as any).id === delivered)
      .map((s) => s.userId);
    expect(told.sort()).toEqual([cordelia, store().realm.notification_bot_id].sort());

    // Cordelia reads it back; it is unread for her and links the message.
    const back = await readBack(t, 'cordelia', delivered, [
      { operator: 'is', operand: 'unread' },
      { operator: 'sender', operand: 'notification-bot@zulip.com' },
    ]);
    expect(back!.match_content).toContain(
      `<a class="message-link" href="/#narrow/channel/1-Denmark/topic/test/near/${message.id}">#Denmark &gt; test @ 💬</a>`,
    );
    expect(back!.match_content).toContain('Reply to Othello');
  });

  it('is delivered by the clock too', async () => {
    const r = await remind('hamlet', { message_id: denmarkMessage().id, scheduled_delivery_timestamp: now() + 90 });
    t.server.clock.advance(91_000);
    expect(store().reminders.get(r.body.reminder_id)!.delivered_message_id).toBeGreaterThan(0);
  });
});
