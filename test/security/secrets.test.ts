// Secrets a client sends or pastes never reach the journal, its stream, a recording or the request
// log: a push_key (marked x-secret in the description) and a temporary upload URL's token pasted
// into a message, in the request and in every answer that quotes it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Recorder } from '../../src/control/scenarios/recorder.js';
import { isSecretKey } from '../../src/control/redact.js';
import { ControlClient } from '../../src/control/client.js';
import { takeViolations } from '../setup/contract-guard.js';
import { requestLogger } from '../../src/request-log.js';
import type { Answer, Call } from '../../src/pipeline/call.js';

const PUSH_KEY = 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt';
const TOKEN = 'Mzk0Ng:1sFaKe:WxYz-secretTokenPart';
const PASTED = `see /user_uploads/temporary/${TOKEN}/harbour.png now`;

let t: TestServer;
const logLines: string[] = [];
beforeAll(async () => {
  t = await startTestServer({ onRequest: requestLogger('json', (line) => logLines.push(line)) });
});
afterAll(async () => {
  await t.close();
});

const journalText = async () => JSON.stringify(await (await fetch(`${t.base}/__mock/journal?limit=100`)).json());

describe('secrets in the journal', () => {
  it('never journals a push_key, decoded or not', async () => {
    await t.as('hamlet').post('/mobile_push/register', { device_id: 1, push_key: PUSH_KEY, push_key_id: 7 });
    await t.as('hamlet').post('/mobile_push/register', { device_id: 'x', push_key: PUSH_KEY });
    const text = await journalText();
    expect(text).toContain('mobile_push/register');
    expect(text).not.toContain(PUSH_KEY);
    expect(logLines.join('\n')).not.toContain(PUSH_KEY);
  });

  it('never journals a temporary URL token pasted into a message: not the send, not the answers that render it', async () => {
    const sent = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'tokens', content: PASTED });
    expect(sent.status).toBe(200);
    const read = await t.as('hamlet').get(`/messages/${sent.body.id}`);
    // The client still gets its message as it wrote it; only the journal forgets the token.
    expect(read.body.message.content).toContain(TOKEN);
    const text = await journalText();
    expect(text).toContain('/user_uploads/temporary/[redacted]');
    expect(text).not.toContain(TOKEN);
    expect(logLines.join('\n')).not.toContain(TOKEN);
  });
  it('never journals an API key, of an answer made anew or of the same answer reused', async () => {
    const bot = t.user('hamlet-bot');
    // Asked three times in a row: the second and third are the first answer reused, sent as the same bytes.
    for (let i = 0; i < 3; i++) {
      const r = await t.as('hamlet').get(`/bots/${bot.user_id}/api_key`);
      expect(r.status).toBe(200);
      expect(r.body.api_key).toBe(bot.api_key);
    }
    const journal = await (await fetch(`${t.base}/__mock/journal?operation=get-bot-api-key&limit=3`)).json();
    expect(journal.entries.map((e: any) => e.response.api_key)).toEqual(['[redacted]', '[redacted]', '[redacted]']);
    expect(JSON.stringify(journal)).not.toContain(bot.api_key);
  });
  it('never journals a token quoted by a large answer, whose start alone the journal keeps', async () => {
    const hamlet = t.as('hamlet');
    const send = async (content: string) =>
      (await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'large tokens', content })).body
        .id as number;
    const first = await send(PASTED);
    for (let i = 0; i < 60; i++) await send(`filler ${i}: ${'words to make the answer large '.repeat(3)}`);
    await send(PASTED);
    const narrow = [
      { operator: 'channel', operand: 'Denmark' },
      { operator: 'topic', operand: 'large tokens' },
    ];
    // The token in the answer's start (the first message), then at its end (the newest one).
    const fromFirst = await hamlet.get('/messages', { anchor: first, num_before: 0, num_after: 100, narrow });
    const toNewest = await hamlet.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
    // The same bytes sent again: the journal keeps the start it redacted for them.
    const again = await hamlet.get('/messages', { anchor: first, num_before: 0, num_after: 100, narrow });
    for (const r of [fromFirst, toNewest, again]) {
      expect(JSON.stringify(r.body).length).toBeGreaterThan(16 * 1024);
      expect(JSON.stringify(r.body)).toContain(TOKEN);
    }
    const entries = (await (await fetch(`${t.base}/__mock/journal?limit=5`)).json()).entries as Array<{
      operation: string;
      response: { truncated?: boolean; start?: string };
    }>;
    const reads = entries.filter((e) => e.operation === 'get-messages');
    expect(reads.length).toBe(3);
    for (const e of reads) expect(e.response.truncated).toBe(true);
    // The read whose start quotes the token and its repeat (the first and last of the three).
    expect(reads[0].response.start!).toContain('/user_uploads/temporary/[redacted]');
    expect(reads[0].response.start).toBe(reads[2].response.start);
    expect(JSON.stringify(entries)).not.toContain(TOKEN);
  });
});

describe('secrets in answers the description does not govern', () => {
  it('never journals a push_key a scenario answers with (a learned name, searched for like the built-in ones)', async () => {
    const control = new ControlClient(t.base);
    await control.scenarios.activate({
      name: 'push-key-answer',
      rules: [
        {
          operation: 'get-own-user',
          respond: { status: 200, body: { result: 'success', msg: '', push_key: PUSH_KEY } },
        },
      ],
    });
    try {
      const res = await t.as('hamlet').get('/users/me');
      expect(res.body.push_key).toBe(PUSH_KEY);
      expect(await journalText()).not.toContain(PUSH_KEY);
    } finally {
      await control.scenarios.deactivate('push-key-answer');
      // The made-up answer breaks the description on purpose.
      takeViolations();
    }
  });
});

describe('secrets in a recording', () => {
  it('drops a push_key parameter', () => {
    expect(isSecretKey('push_key')).toBe(true);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'secret-recording-'));
    try {
      const rec = new Recorder(dir);
      const call = {
        op: { id: 'register-push-device' },
        params: { push_key: PUSH_KEY, push_key_id: 7, note: PASTED },
        req: { headers: {} },
      } as unknown as Call;
      const answer = {
        status: 200,
        body: { result: 'success', msg: '' },
        relay: { json: true, headers: { 'content-type': 'application/json' } },
      } as unknown as Answer;
      rec.add(call, answer);
      const text = readFileSync(rec.file, 'utf8');
      expect(text).toContain('push_key_id');
      expect(text).not.toContain(PUSH_KEY);
      expect(text).not.toContain(TOKEN);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
