// The one error type: views and the HTTP layer throw ApiError; src/http/respond.ts turns it into
// the envelope {"result":"error","msg":...,"code":...,<extra>}. Nothing else writes error bodies.

/**
 * An answer the real server gives for a refused request: an expected outcome, never a bug, so it
 * carries no stack. Capturing one cost 5-25 µs per error answer (more than the rest of many such
 * requests), and nothing reads it: unexpected errors are logged with their own stacks.
 */
export class ApiError extends Error {
  constructor(
    /** null for the few answers the real server writes without a code (405). */
    readonly code: string | null,
    msg: string,
    readonly status = 400,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    const stackFrames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(msg);
    Error.stackTraceLimit = stackFrames;
  }
}

/** BAD_REQUEST: the generic invalid-request error (spec Part 7). */
export const badRequest = (msg: string, extra: Record<string, unknown> = {}) =>
  new ApiError('BAD_REQUEST', msg, 400, extra);

/** The real server's IncompatibleParametersError: parameters that cannot be given together. */
export const incompatibleParameters = (names: readonly string[]) =>
  new ApiError('BAD_REQUEST', `Unsupported parameter combination: ${names.join(', ')}`, 400, {
    parameters: names.join(', '),
  });

export const missingArgument = (name: string) =>
  new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name });

/** What the real server answers with every 401: a request for HTTP Basic credentials. */
export const BASIC_CHALLENGE: Readonly<Record<string, string>> = Object.freeze({
  'WWW-Authenticate': 'Basic realm="zulip"',
});

/** 401 UNAUTHORIZED asking for HTTP Basic credentials: every refusal of the API-key path. */
export const unauthorized = (msg: string) => new ApiError('UNAUTHORIZED', msg, 401, {}, BASIC_CHALLENGE);

export const notLoggedIn = () => unauthorized('Not logged in: API authentication or user session required');

export const invalidApiKey = () => unauthorized('Invalid API key');

/**
 * A deactivated account as the password login (POST /fetch_api_key) reports it: its own code,
 * USER_DEACTIVATED, at 401. The API-key path reports it as UNAUTHORIZED (see http/auth.ts).
 */
export const accountDeactivated = () =>
  new ApiError('USER_DEACTIVATED', 'Account is deactivated', 401, {}, BASIC_CHALLENGE);

/**
 * A deactivated organization as the logins (password, development, JWT) report it: REALM_DEACTIVATED
 * at 401. The API-key path reports the same wording as UNAUTHORIZED (see http/auth.ts).
 */
export const realmDeactivated = () =>
  new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401, {}, BASIC_CHALLENGE);

export const mustBeAdmin = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');

export const insufficientPermission = () => badRequest('Insufficient permission');

export const notFound = () => new ApiError('BAD_REQUEST', 'Not Found', 404);

/** The real server builds this body by hand (json_method_not_allowed): it has no code. */
export const methodNotAllowed = (allowed: string[]) =>
  new ApiError(null, 'Method Not Allowed', 405, { allowed_methods: allowed }, { Allow: allowed.join(', ') });

export const notImplemented = (operationId: string) =>
  new ApiError('NOT_IMPLEMENTED', `teamchat-mock does not implement ${operationId} yet`, 501);

export const internalError = () => new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error', 500);

/** The proxied upstream's answer could not be relayed (too large, cut short, bad framing): the mock's 502. */
export const upstreamMalformed = (upstream: string, why: string) =>
  new ApiError(
    'UPSTREAM_MALFORMED',
    `The upstream server ${upstream} sent an answer that cannot be relayed: ${why}`,
    502,
  );

/** A path with dot segments (`..`, `%2e%2e`) is never forwarded: the upstream would resolve it elsewhere. */
export const dotSegmentPath = () => new ApiError('BAD_REQUEST', 'Paths with dot segments are not forwarded', 400);

/** The proxied upstream did not answer (refused, reset, timed out): the mock's 502, not the upstream's. */
export const upstreamUnreachable = (upstream: string, why: string) =>
  new ApiError('UPSTREAM_UNREACHABLE', `The upstream server ${upstream} did not answer: ${why}`, 502);

/**
 * The real server's RateLimitedError (429 RATE_LIMIT_HIT): the seconds until a request is
 * allowed again as the body's `retry-after` and, as the rate-limited scenario sends it, whole
 * seconds rounded up in the Retry-After header. Every limit of the mock answers it: the API
 * limit, the login limit and the email change limit.
 */
export const rateLimitHit = (secondsToFreedom: number) =>
  new ApiError(
    'RATE_LIMIT_HIT',
    'API usage exceeded rate limit',
    429,
    { 'retry-after': secondsToFreedom },
    { 'Retry-After': String(Math.ceil(secondsToFreedom)) },
  );
