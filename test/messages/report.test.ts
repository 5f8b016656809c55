// POST /messages/{message_id}/report: the notification bot's report in the moderation request channel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { readBack } from '../helpers/read-back.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const report = (who: string, id: number, params: Record<string, unknown>) =>
  t.as(who).post(`/messages/${id}/report`, params);
const moderation = () => store().streams.get(store().realm.moderation_request_channel_id!)!;
const reports = () =>
  store().messages.filter(
    (m) => m.stream_id === moderation().stream_id && m.sender_id === store().realm.notification_bot_id,
  );

describe('POST /messages/{message_id}/report', () => {
  it('posts a report naming the reporter, the message and the reason in the moderation channel', async () => {
    const reported = store().messages.get(3)!; // othello in Denmark > test
    const r = await report('hamlet', reported.id, { report_type: 'harassment', description: 'Not nice.' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const [posted] = reports();
    const hamlet = `@_**King Hamlet|${t.user('hamlet').user_id}**`;
    const othello = `@_**Othello, the Moor of Venice|${t.user('othello').user_id}**`;
    expect(posted.topic).toBe("Othello, the Moor of Venice's moderation requests");
    expect(posted.content).toBe(
      [
        `${hamlet} reported #**Denmark>test@${reported.id}** sent by ${othello}.`,
        '- Reason: **harassment**',
        '- Notes:',
        '```quote',
        'Not nice.',
        '```',
        `\`\`\` spoiler **Message sent by ${othello}**`,
        reported.content,
        '```',
      ].join('\n'),
    );
    // A moderator (iago, subscribed to the moderation channel) reads it back, unread.
    const back = await readBack(t, 'iago', posted.id, [
      { operator: 'channel', operand: moderation().name },
      { operator: 'is', operand: 'unread' },
    ]);
    expect(back!.match_subject).toBe('Othello, the Moor of Venice&#x27;s moderation requests');
    expect(back!.match_content).toContain(
      '<span class="user-mention silent" data-user-id="4">King Hamlet</span> reported',
    );
  });

  it('describes a reported direct message by its participants', async () => {
    const before = reports().length;
    const r = await report('othello', 24, { report_type: 'spam' }); // hamlet to othello
    expect(r.status).toBe(200);
    const posted = reports()[before];
    expect(posted.content.split('\n')[0]).toBe(
      `@_**Othello, the Moor of Venice|5** reported a DM sent by @_**King Hamlet|4** to @_**Othello, the Moor of Venice|5**.`,
    );
    expect(posted.topic).toBe("King Hamlet's moderation requests");
  });

  it('needs a description for report_type other', async () => {
    const before = reports().length;
    for (const description of [undefined, '', '  ']) {
      const r = await report('hamlet', 3, { report_type: 'other', description });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'For report_type=other, a description must be provided.'));
    }
    expect(reports()).toHaveLength(before);
    expect(await report('hamlet', 3, { report_type: 'other', description: 'Off topic.' })).toMatchObject({
      status: 200,
    });
  });

  it('accepts only the server_report_message_types keys and limits the description', async () => {
    const bad = await report('hamlet', 3, { report_type: 'rude' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_REQUEST');
    const long = await report('hamlet', 3, { report_type: 'spam', description: 'd'.repeat(1001) });
    expect(long.body).toEqual(error('BAD_REQUEST', 'description is too long (limit: 1000 characters)'));
    for (const key of ['spam', 'harassment', 'inappropriate', 'norms']) {
      expect(await report('hamlet', 3, { report_type: key })).toMatchObject({ status: 200 });
    }
  });

  it('refuses messages the user cannot see', async () => {
    const r = await report('othello', 19, { report_type: 'spam' }); // core team
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });

  it('refuses reports when the organization has no moderation request channel', async () => {
    const saved = store().realm.moderation_request_channel_id;
    store().updateRealm({ moderation_request_channel_id: null });
    try {
      const before = store().messages.size;
      const r = await report('hamlet', 3, { report_type: 'spam' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(
        error('BAD_REQUEST', 'Moderation request channel must be specified to enable message reporting.'),
      );
      expect(store().messages.size).toBe(before);
    } finally {
      store().updateRealm({ moderation_request_channel_id: saved });
    }
  });
});
