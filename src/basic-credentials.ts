// The email and key of an HTTP Basic Authorization header (the API's, and a remote server's UUID
// and key at the push bouncer's endpoints): part of the ground, since the domain reads it too.
import { unauthorized } from './errors.js';
import { Memo } from './memo.js';

/** Headers decoded lately: a client sends the same one with every request. */
const decodedHeaders = new Memo<string, [string, string]>(1000);

/** The email and key of a Basic Authorization header; null without one; throws when malformed. */
export function basicCredentials(header: string | undefined): [string, string] | null {
  return header ? decodedHeaders.get(header, decodeBasic) : null;
}

function decodeBasic(header: string): [string, string] {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('This endpoint requires HTTP basic authentication.');
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized('Invalid authorization header for basic auth');
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}
