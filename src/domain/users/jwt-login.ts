// POST /jwt/fetch_api_key: a JSON web token, signed with the key the server is configured with
// (--jwt-key; HS256), exchanged for the API key of the account its `email` claim names. The
// checks follow the real server's order: JWT configured, a token given, the token valid (its
// signature, and exp/nbf on the mock clock), an email claim, then the account as the password
// login finds it (any address the account has, compared without case).
import { createSecretKey, type KeyObject } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { OpenCtx } from '../context.js';
import { userForClient } from './register-state.js';
import { authenticationFailed, requireLoginAllowed } from './login.js';
import { userByDeliveryEmail } from './access.js';

/** The real server accepts the algorithms its configuration lists; the mock's key is a shared secret. */
const ALGORITHMS = ['HS256'];

/**
 * The key as a KeyObject, made once per server configuration: given raw bytes, jose imports a
 * new key on every verification, which was most of a login's cost.
 */
const SECRETS = new WeakMap<object, KeyObject>();
function secretOf(ctx: OpenCtx, key: string): KeyObject {
  let secret = SECRETS.get(ctx.server.services);
  if (!secret) SECRETS.set(ctx.server.services, (secret = createSecretKey(Buffer.from(key, 'utf8'))));
  return secret;
}

async function verifiedClaims(ctx: OpenCtx, key: string, token: string): Promise<Record<string, unknown>> {
  // Loaded on the first JWT login: most runs never take one, and jose is a tenth of the start-up's modules.
  const { errors: joseErrors, jwtVerify } = await import('jose');
  try {
    const { payload } = await jwtVerify(token, secretOf(ctx, key), {
      algorithms: ALGORITHMS,
      currentDate: new Date(ctx.clock.nowMs()),
    });
    return payload;
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) throw badRequest('Bad JSON web token');
    throw err;
  }
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
