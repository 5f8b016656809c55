// Below feature level 255 error messages say "stream" where the newer server says "channel"
// (the renaming of strings the changelog marks at 255); codes and parameter names are unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { wordingAt } from '../../src/http/envelope.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const at = (level: number) => t.as('hamlet', { 'X-Mock-Feature-Level': String(level) });

describe('error wording by level', () => {
  it('says stream below 255 and channel from 255', async () => {
    expect((await at(254).get('/streams/99999')).body).toEqual(error('BAD_REQUEST', 'Invalid stream ID'));
    expect((await at(255).get('/streams/99999')).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    const leave = { subscriptions: ['nonexistent'] };
    expect((await at(254).delete('/users/me/subscriptions', leave)).body).toEqual(
      error('BAD_REQUEST', 'Stream(s) (nonexistent) do not exist'),
    );
    expect((await at(511).delete('/users/me/subscriptions', leave)).body).toEqual(
      error('BAD_REQUEST', 'Channel(s) (nonexistent) do not exist'),
    );
  });

  it('turns back whole words only, keeping their case and number', () => {
    expect(wordingAt(254, 'Channel(s) do not exist; channels; Channels; channel_id; channelled')).toBe(
      'Stream(s) do not exist; streams; Streams; channel_id; channelled',
    );
    expect(wordingAt(255, 'Invalid channel ID')).toBe('Invalid channel ID');
    // Not routed yet (level 0): the newest wording.
    expect(wordingAt(0, 'Invalid channel ID')).toBe('Invalid channel ID');
  });
});
