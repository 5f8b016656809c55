// DNS rebinding defence, decided the way Vite's `server.allowedHosts` and webpack-dev-server's
// `allowedHosts` decide: a page that points its own name at 127.0.0.1 still sends that name in
// `Host`, so the server answers only names of the address it listens on and the names it was
// told about (`--allowed-host`). Everything else gets 403 before any routing, sandbox or body.
import { networkInterfaces, hostname as machineName } from 'node:os';
import { isIP } from 'node:net';
import { ApiError } from '../errors.js';

/** The hostname part of a Host header value (brackets kept off IPv6), lower case; null when malformed. */
function hostOf(header: string): string | null {
  const m = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9._-]+))(?::\d{1,5})?$/i.exec(header.trim());
  if (!m) return null;
  return (m[1] ?? m[2]).toLowerCase().replace(/\.$/, '');
}

const LOOPBACK_ADDRESS = /^127\.(?:\d{1,3})\.(?:\d{1,3})\.(?:\d{1,3})$/;

/** Loopback as a client may write it: localhost (and *.localhost, RFC 6761), 127.x.y.z, ::1. */
function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1') return true;
  return (
    LOOPBACK_ADDRESS.test(name) && name.split('.').every((part) => Number(part) <= 255 && String(Number(part)) === part)
  );
}

const isWildcard = (addr: string) => addr === '0.0.0.0' || addr === '::';

/** Names that reach a server listening on `listenHost`, and the entries it was told to allow. */
export function hostAllowList(listenHost: string, extra: string[] = []): (name: string) => boolean {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const add = (entry: string) => {
    const name = entry
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    // ".example.test" allows the name and its subdomains, as in Vite.
    if (name.startsWith('.')) {
      suffixes.push(name);
      exact.add(name.slice(1));
    } else if (name) exact.add(name);
  };
  const listen = listenHost.toLowerCase().replace(/^\[|\]$/g, '');
  add(listen);
  if (isWildcard(listen)) {
    // Every address of the machine reaches a wildcard listener, and so does its own name.
    for (const list of Object.values(networkInterfaces()))
      for (const i of list ?? []) add(i.address.replace(/%.*$/, ''));
    add(machineName());
  }
  for (const entry of extra) add(entry);
  const loopback = isLoopbackName(listen) || isWildcard(listen);
  return (name) => (loopback && isLoopbackName(name)) || exact.has(name) || suffixes.some((s) => name.endsWith(s));
}

/** How many Host header values hostHeaderCheck remembers (clients send one or two; a flood of others starts it over). */
const REMEMBERED_HOSTS = 64;

/**
 * Whether a Host header names a host `allowed` accepts, remembered per header value: the parse
 * and the checks cost a few µs, on every request, for the one value a client always sends.
 */
export function hostHeaderCheck(allowed: (name: string) => boolean): (header: string | undefined) => boolean {
  const known = new Map<string, boolean>();
  return (header) => {
    if (header === undefined) return false;
    let ok = known.get(header);
    if (ok === undefined) {
      const name = hostOf(header);
      ok = name !== null && allowed(name);
      if (known.size >= REMEMBERED_HOSTS) known.clear();
      known.set(header, ok);
    }
    return ok;
  };
}

/** The refusal of a Host the server does not answer, naming the way to allow it. */
export function hostNotAllowed(header: string | undefined): ApiError {
  if (!header) return new ApiError('BAD_REQUEST', 'Missing Host header', 403);
  const name = hostOf(header);
  const shown = name && isIP(name) === 6 ? `[${name}]` : name;
  return new ApiError(
    'BAD_REQUEST',
    `Host '${header}' is not allowed: this server answers only the names of the address it listens on` +
      (name ? ` (start it with --allowed-host ${shown} to allow this one)` : ''),
    403,
  );
}
