// The response envelope, written here and nowhere else.
import { supportsAt } from '../contract/behaviours.js';
import { ApiError } from '../errors.js';

export type Body = Record<string, unknown>;

export function successBody(data: Body | void, ignored: string[], withIgnored: boolean): Body {
  const body: Body = { result: 'success', msg: '', ...(data ?? {}) };
  if (withIgnored && ignored.length) body.ignored_parameters_unsupported = ignored;
  return body;
}

/**
 * The error body. `level`: the feature level the request is answered at (absent or 0: not routed
 * yet, the newest wording).
 */
export function errorBody(err: ApiError, level = 0): Body {
  const msg = wordingAt(level, err.message);
  if (err.code === null) return { result: 'error', msg, ...err.extra };
  return { result: 'error', msg, code: err.code, ...err.extra };
}

const CHANNEL_WORD = /\b([Cc])hannel(s?)\b/g;

/**
 * An error's wording at a level: below 255 the real server's strings said "stream" where they
 * now say "channel" (the changelog marks that renaming at 255, apart from any API change), so
 * the words are turned back; parameter names such as `channel_id` are left as they are.
 */
export function wordingAt(level: number, msg: string): string {
  if (!level || supportsAt(level, 'channel_wording') || !msg.includes('hannel')) return msg;
  return msg.replace(CHANNEL_WORD, (_, c: string, s: string) => `${c === 'C' ? 'S' : 's'}tream${s}`);
}
