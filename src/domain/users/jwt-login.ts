// POST /jwt/fetch_api_key: a JSON web token, signed with the key the server is configured with
// (--jwt-key; HS256), exchanged for the API key of the account its `email` claim names. The
// checks follow the real server's order: JWT configured, a token given, the token valid (its
// signature, and exp/nbf on the mock clock), an email claim, then the account as the password
// login finds it (any address the account has, compared without case).
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { OpenCtx } from '../context.js';
import { userForClient } from './register-state.js';
import { authenticationFailed, requireLoginAllowed } from './login.js';
import { userByDeliveryEmail } from './access.js';

/** The real server accepts the algorithms its configuration lists; the mock's key is a shared secret. */
const ALGORITHM = 'HS256';

/** The key as a KeyObject, made once per server configuration rather than read from text on every login. */
const SECRETS = new WeakMap<object, KeyObject>();
function secretOf(ctx: OpenCtx, key: string): KeyObject {
  let secret = SECRETS.get(ctx.server.services);
  if (!secret) SECRETS.set(ctx.server.services, (secret = createSecretKey(Buffer.from(key, 'utf8'))));
  return secret;
}

const badToken = () => badRequest('Bad JSON web token');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The token's claims once its signature and its time claims hold. jose reads the token's parts,
 * as its jwtVerify would; the HS256 signature is checked with node:crypto's HMAC because jose
 * checks it through WebCrypto, whose thread-pool round trip was most of a login's cost (about
 * 140 µs against 3 µs). The claims are judged as jwtVerify judges them, on the mock clock:
 * exp, nbf and iat must be numbers, exp past or nbf to come refuse the token.
 */
async function verifiedClaims(ctx: OpenCtx, key: string, token: string): Promise<Record<string, unknown>> {
  // Loaded on the first JWT login: most runs never take one, and jose is a tenth of the start-up's modules.
  const { decodeJwt, decodeProtectedHeader } = await import('jose');
  const parts = token.split('.');
  if (parts.length !== 3 || !BASE64URL.test(parts[2])) throw badToken();
  let claims: Record<string, unknown>;
  try {
    const header = decodeProtectedHeader(token);
    // Critical extensions the mock does not know, as an unknown algorithm, make the token unusable.
    if (header.alg !== ALGORITHM || header.crit !== undefined || header.b64 !== undefined) throw badToken();
    claims = decodeJwt(token);
  } catch {
    throw badToken();
  }
  const expected = createHmac('sha256', secretOf(ctx, key)).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badToken();
  const now = Math.floor(ctx.clock.nowMs() / 1000);
  for (const claim of ['exp', 'nbf', 'iat'])
    if (claims[claim] !== undefined && typeof claims[claim] !== 'number') throw badToken();
  if (claims.exp !== undefined && (claims.exp as number) <= now) throw badToken();
  if (claims.nbf !== undefined && (claims.nbf as number) > now) throw badToken();
  return claims;
}

export async function jwtFetchApiKey(ctx: OpenCtx, input: { token?: string; include_profile: boolean }) {
  const key = ctx.server.services.jwtKey;
  if (!key) throw badRequest('JWT authentication is not enabled for this organization');
  if (!input.token) throw badRequest('No JSON web token passed in request');
  const claims = await verifiedClaims(ctx, key, input.token);
  if (claims.email === undefined || claims.email === null)
    throw badRequest('No email specified in JSON web token claims');
  const wanted = String(claims.email).trim().toLowerCase();
  const user = userByDeliveryEmail(ctx.store, wanted, (u) => !u.is_system_bot);
  if (!user) throw authenticationFailed();
  requireLoginAllowed(ctx.store, user);
  // No user_id here, unlike POST /fetch_api_key: the real server's JWT login answers the key and the address only.
  const result: Record<string, unknown> = { api_key: user.api_key, email: user.delivery_email };
  if (input.include_profile) {
    const dict = userForClient(user, user, { clientGravatar: false });
    delete dict.profile_data;
    result.user = dict;
  }
  return result;
}
