// The control API as the page calls it: JSON in and out, the sandbox in X-Mock-Sandbox and, when
// the server wants one, the control token in X-Mock-Token (kept for this browser tab only).

/** Where the control API is: the page lives at <root>ui/, possibly behind /sandbox/NAME/. */
function locate() {
  const path = location.pathname;
  const at = path.indexOf('/__mock/ui');
  const before = at >= 0 ? path.slice(0, at) : '';
  const prefix = /\/sandbox\/([A-Za-z0-9_-]{1,64})$/.exec(before);
  return {
    root: `${prefix ? before.slice(0, -prefix[0].length) : before}/__mock/`,
    prefixSandbox: prefix?.[1] ?? null,
  };
}

const where = locate();
const controlRoot = where.root;

const params = new URLSearchParams(location.search);
let sandbox = params.get('sandbox') || where.prefixSandbox || 'default';
let token = sessionStorage.getItem('teamchat-mock-token') ?? '';
const unauthorizedListeners = [];

class ControlError extends Error {
  constructor(status, body) {
    super(body?.msg || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? null;
  }
}

export const currentSandbox = () => sandbox;
export const hasToken = () => token !== '';

export function setSandbox(name) {
  sandbox = name;
  const url = new URL(location.href);
  if (name === 'default') url.searchParams.delete('sandbox');
  else url.searchParams.set('sandbox', name);
  history.replaceState(null, '', url);
}

export function setToken(value) {
  token = value;
  if (value) sessionStorage.setItem('teamchat-mock-token', value);
  else sessionStorage.removeItem('teamchat-mock-token');
}

/** Called when the control API refuses the page (401: a token is needed or wrong). */
export const onUnauthorized = (fn) => unauthorizedListeners.push(fn);

function controlHeaders() {
  const headers = {};
  if (sandbox !== 'default') headers['X-Mock-Sandbox'] = sandbox;
  if (token) headers['X-Mock-Token'] = token;
  return headers;
}

/** Calls the control API; resolves to the data fields, rejects with ControlError. */
export async function control(method, path, { body, query } = {}) {
  const url = new URL(controlRoot + path.replace(/^\//, ''), location.href);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  const headers = controlHeaders();
  // State changes go as JSON, always: the control API refuses any other kind (a page could forge it).
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    body ??= {};
  }
  let res;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ControlError(0, { msg: `The mock does not answer (${err.message})` });
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (res.status === 401) for (const fn of unauthorizedListeners) fn(data?.msg ?? 'Unauthorized');
  if (!data || data.result !== 'success') throw new ControlError(res.status, data);
  const { result: _r, msg: _m, ...fields } = data;
  return fields;
}

/** URL of the live journal stream (EventSource cannot send headers, so no token here). */
export function streamUrl(sinceId) {
  const url = new URL(`${controlRoot}journal/stream`, location.href);
  url.searchParams.set('sandbox', sandbox);
  if (sinceId) url.searchParams.set('since_id', String(sinceId));
  return url;
}

/** URL of the live outbox stream of the current sandbox (no token either, as above). */
export function outboxStreamUrl(sinceId) {
  const url = new URL(`${controlRoot}outbox/stream`, location.href);
  url.searchParams.set('sandbox', sandbox);
  url.searchParams.set('since_id', String(sinceId));
  return url;
}
