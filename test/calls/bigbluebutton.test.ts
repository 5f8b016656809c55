// GET /calls/bigbluebutton/create: a join link carrying the meeting's details signed as Django's
// Signer signs them, the caller as moderator (FL 337; a password before), the same link for the
// same call at the same mock time, and the real server's parameter errors.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const create = (who: string, params: Record<string, unknown>, headers?: Record<string, string>) =>
  t.as(who, headers).get('/calls/bigbluebutton/create', params);

/** The signed value of a join link, checked against the mock's key the way Django's Signer checks it. */
function detailsOf(url: string): Record<string, unknown> {
  const match = /^\/calls\/bigbluebutton\/join\?bigbluebutton=([A-Za-z0-9_-]+):([A-Za-z0-9_-]{43})$/.exec(url);
  expect(match).not.toBeNull();
  const [, value, signature] = match!;
  const key = createHash('sha256')
    .update('django.core.signing.Signersigner' + 'teamchat-mock')
    .digest();
  expect(createHmac('sha256', key).update(value).digest('base64url')).toBe(signature);
  return JSON.parse(Buffer.from(value, 'base64url').toString('latin1'));
}

describe('GET /calls/bigbluebutton/create', () => {
  it('answers a signed join link naming the meeting, the camera lock and the caller as moderator', async () => {
    const r = await create('hamlet', { meeting_name: 'Denmark meeting', voice_only: true });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['msg', 'result', 'url']);
    const details = detailsOf(r.body.url);
    expect(Object.keys(details)).toEqual(['meeting_id', 'name', 'lock_settings_disable_cam', 'moderator']);
    expect(details).toMatchObject({
      name: 'Denmark meeting',
      lock_settings_disable_cam: true,
      moderator: t.user('hamlet').user_id,
    });
    expect(details.meeting_id).toMatch(/^zulip-[1-9][0-9]{11}$/);
    expect(detailsOf((await create('polonius', { meeting_name: 'x' })).body.url)).toMatchObject({
      lock_settings_disable_cam: false,
      moderator: t.user('polonius').user_id,
    });
  });

  it('writes non-ASCII names as Python does (escaped), so the signed value is plain ASCII', async () => {
    const r = await create('hamlet', { meeting_name: 'Café ☕ 😀' });
    const value = /bigbluebutton=([^:]+):/.exec(r.body.url)![1];
    expect(Buffer.from(value, 'base64url').toString('latin1')).toContain('"name":"Caf\\u00e9 \\u2615 \\ud83d\\ude00"');
    expect(detailsOf(r.body.url).name).toBe('Café ☕ 😀');
  });

  it('gives the same link for the same call at the same mock time, and a new meeting otherwise', async () => {
    t.server.clock.freeze();
    const first = (await create('hamlet', { meeting_name: 'standup' })).body.url;
    expect((await create('hamlet', { meeting_name: 'standup' })).body.url).toBe(first);
    const others = [
      (await create('othello', { meeting_name: 'standup' })).body.url,
      (await create('hamlet', { meeting_name: 'retro' })).body.url,
    ];
    t.server.clock.advance(1000);
    others.push((await create('hamlet', { meeting_name: 'standup' })).body.url);
    const ids = new Set([first, ...others].map((url) => detailsOf(url).meeting_id));
    expect(ids.size).toBe(4);
  });

  it('before FL 337 carries a moderator password instead, and ignores voice_only', async () => {
    const r = await create('hamlet', { meeting_name: 'old', voice_only: true }, { 'X-Mock-Feature-Level': '336' });
    expect(r.body.ignored_parameters_unsupported).toEqual(['voice_only']);
    const details = detailsOf(r.body.url);
    expect(Object.keys(details)).toEqual(['meeting_id', 'name', 'password']);
    expect(details.password).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('requires meeting_name', async () => {
    const r = await create('hamlet', {});
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'meeting_name' argument", { var_name: 'meeting_name' }),
    );
  });
});
