// Where the mock may call: safe by default, an outgoing webhook's URL must be on a loopback
// address (127.0.0.0/8, ::1, localhost), or on a host the server was started with
// --allow-outgoing for. A URL elsewhere is refused when the bot is created or its service changed;
// one that reaches the state another way (a fixture, an import) is refused at call time as the
// real server's outgoing proxy refuses a disallowed network (status 407).
import { badRequest } from '../../../errors.js';

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(host)
  );
}

/** Whether the mock may call this URL (one it cannot parse is left to the call, which fails as the real one would). */
export function mayCall(url: string, allowHosts: readonly string[]): boolean {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return true;
  }
  return isLoopbackHost(hostname) || allowHosts.some((h) => h.toLowerCase() === hostname.toLowerCase());
}

/** Refuses, at creation or change, a service URL the mock would not call. */
export function checkServiceUrl(param: string, url: string, allowHosts: readonly string[]): void {
  if (!url || mayCall(url, allowHosts)) return;
  const host = new URL(url).hostname;
  throw badRequest(
    `${param}: ${host} is not a loopback address; the mock calls only 127.0.0.1, ::1 and localhost unless started with --allow-outgoing ${host}`,
  );
}
