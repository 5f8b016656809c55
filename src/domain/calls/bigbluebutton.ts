// GET /calls/bigbluebutton/create: a link to a new BigBlueButton call. The real server signs the
// meeting's details with Django's Signer and checks the signature (and its BigBlueButton
// settings) only when the link is followed; the mock builds the same kind of link. It has no
// secret of the real server's and no randomness worth keeping: the key is fixed and the meeting
// ID is derived from the request and the mock time, so a repeated call gives the same link.
import { createHash, createHmac } from 'node:crypto';
import type { Ctx } from '../context.js';

/** The mock's stand-in for the real server's SECRET_KEY (documented in the description). */
const SIGNING_KEY = 'teamchat-mock';
/** Django's Signer: the class's dotted path as salt, "signer" appended, SHA-256. */
const SIGNER_SALT = 'django.core.signing.Signer' + 'signer';
const JOIN_PATH = '/calls/bigbluebutton/join';

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** JSON as Python's json.dumps writes it with compact separators: every non-ASCII character escaped. */
function pythonJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Signer.sign_object: base64url of the JSON, ":", base64url of its salted HMAC-SHA256. */
function signObject(details: Record<string, unknown>): string {
  const value = base64url(Buffer.from(pythonJson(details), 'latin1'));
  const key = createHash('sha256')
    .update(SIGNER_SALT + SIGNING_KEY)
    .digest();
  return `${value}:${base64url(createHmac('sha256', key).update(value).digest())}`;
}

/** Bytes standing in for the real server's random draws: the same request at the same mock time gives the same ones. */
function drawFor(ctx: Ctx, parts: unknown[]): Buffer {
  return createHmac('sha256', SIGNING_KEY)
    .update(JSON.stringify([ctx.actor.user_id, ctx.clock.now(), ...parts]))
    .digest();
}

/** "zulip-" and a 12-digit number, as the real server's random.randint(10**11, 10**12 - 1). */
function meetingId(draw: Buffer): string {
  const span = 900_000_000_000n;
  return `zulip-${100_000_000_000n + (draw.readBigUInt64BE(0) % span)}`;
}

/** Base32 (RFC 4648, padded) of 20 bytes: the moderator password of the links before FL 337. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

export function bigBlueButtonLink(ctx: Ctx, input: { meeting_name: string; voice_only: boolean }): { url: string } {
  const draw = drawFor(ctx, [input.meeting_name, input.voice_only]);
  const meeting_id = meetingId(draw);
  // From FL 337 the caller alone moderates and voice_only locks cameras; before, everyone
  // moderated with a password carried in the link.
  const details = ctx.supports('bigbluebutton_creator_moderates')
    ? {
        meeting_id,
        name: input.meeting_name,
        lock_settings_disable_cam: input.voice_only,
        moderator: ctx.actor.user_id,
      }
    : { meeting_id, name: input.meeting_name, password: base32(draw.subarray(8, 28)) };
  return { url: `${JOIN_PATH}?bigbluebutton=${signObject(details)}` };
}
