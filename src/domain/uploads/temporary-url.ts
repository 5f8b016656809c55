// Temporary URLs of uploads: GET /api/v1/user_uploads/{realm_id_str}/{filename} answers
// /user_uploads/temporary/<token>/<file name>, which serves the file without credentials for 60
// seconds. As on the real server the token is not stored anywhere: it is the hex (upper case) of
// "<path id>:<time>:<signature>", the time in base 62 seconds and the signature an HMAC of the rest,
// so that it cannot be made for another file or time. The key is the world's own, made when the
// world first signs; the time is the world's clock, so tests expire a URL by advancing it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { DerivedSlot } from '../../store/derived.js';
import type { Clock } from '../../clock.js';
import type { FileResult } from '../context.js';
import { fileAnswer, visibleAttachment } from './upload.js';

/** The real server's SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS. */
const LIFETIME_SECONDS = 60;

const signingKey = new DerivedSlot(() => randomBytes(32));

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function toBase62(n: number): string {
  let out = '';
  do {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  } while (n > 0);
  return out;
}

/** NaN for text that is not base 62. */
function fromBase62(text: string): number {
  let n = text === '' ? NaN : 0;
  for (const c of text) n = n * 62 + (BASE62.includes(c) ? BASE62.indexOf(c) : NaN);
  return n;
}

const signature = (store: Store, value: string) =>
  createHmac('sha256', store.derived.of(signingKey)).update(value).digest('base64url');

export function temporaryUrl(
  world: { store: Store; clock: Clock },
  user: User,
  where: { realmId: number; path: string },
): string {
  const attachment = visibleAttachment(world.store, user, where);
  const signed = `${attachment.path_id}:${toBase62(world.clock.now())}`;
  const token = Buffer.from(`${signed}:${signature(world.store, signed)}`, 'utf8')
    .toString('hex')
    .toUpperCase();
  return `/user_uploads/temporary/${token}/${encodeURIComponent(attachment.path_id.split('/').at(-1)!)}`;
}

/** The path ID a token was signed for, or null when it is not a token of this world or has expired. */
function pathIdOf(world: { store: Store; clock: Clock }, token: string): string | null {
  // The real server decodes strict base 16: upper-case digits, whole bytes.
  if (!/^(?:[0-9A-F]{2})+$/.test(token)) return null;
  const text = Buffer.from(token, 'hex').toString('utf8');
  const cut = text.lastIndexOf(':');
  if (cut < 0) return null;
  const signed = text.slice(0, cut);
  const given = Buffer.from(text.slice(cut + 1));
  const expected = Buffer.from(signature(world.store, signed));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const timeAt = signed.lastIndexOf(':');
  const madeAt = fromBase62(signed.slice(timeAt + 1));
  if (timeAt < 0 || !(world.clock.nowMs() / 1000 - madeAt <= LIFETIME_SECONDS)) return null;
  return signed.slice(0, timeAt);
}

/** GET /user_uploads/temporary/{token}/{filename}: the file, to anyone holding a live token. */
export function downloadWithToken(
  world: { store: Store; clock: Clock },
  { token, filename }: { token: string; filename: string },
): FileResult {
  const pathId = pathIdOf(world, token);
  if (pathId === null) throw badRequest('Invalid token');
  if (pathId.split('/').at(-1) !== filename) throw badRequest('Invalid filename');
  const attachment = world.store.attachments.by('path_id', pathId);
  if (!attachment) throw badRequest('Invalid token');
  return fileAnswer(attachment);
}
