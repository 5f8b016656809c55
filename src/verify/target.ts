// The server `verify` talks to: its site and the caller's credentials. Every request goes through
// here, which refuses any URL outside the target's origin (a redirect is not followed either).
import { readFileSync } from 'node:fs';

export interface Credentials {
  email: string;
  apiKey: string;
}

export interface TargetReply {
  status: number;
  body: unknown;
  text: string;
}

export class Target {
  readonly origin: string;
  private readonly base: string;
  private readonly auth: string;

  constructor(site: string, credentials: Credentials) {
    const url = new URL(site);
    this.origin = url.origin;
    this.base = url.href.replace(/\/+$/, '');
    this.auth = `Basic ${Buffer.from(`${credentials.email}:${credentials.apiKey}`).toString('base64')}`;
  }

  /** One API call: `path` below /api/v1, parameters form-encoded (JSON for non-strings) in the query or body. */
  async call(
    method: string,
    path: string,
    params: Record<string, unknown> = {},
    options: { anonymous?: boolean } = {},
  ): Promise<TargetReply> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params))
      if (v !== undefined) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    const inQuery = method === 'GET' || method === 'DELETE';
    const url = new URL(`${this.base}/api/v1${path}${inQuery && [...form].length ? `?${form}` : ''}`);
    if (url.origin !== this.origin) throw new Error(`refusing a request outside ${this.origin}: ${url.href}`);
    const headers: Record<string, string> = { 'user-agent': 'teamchat-mock-verify/1' };
    if (!options.anonymous) headers.authorization = this.auth;
    if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method,
      headers,
      body: inQuery ? undefined : form.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* reported as not JSON */
    }
    return { status: res.status, body, text };
  }
}

/** email, key and site of a zuliprc file's [api] section. */
export function readZuliprc(file: string): { email?: string; key?: string; site?: string } {
  const out: Record<string, string> = {};
  let section = '';
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[(.+)\]$/.exec(line);
    if (head) {
      section = head[1].trim();
      continue;
    }
    const pair = /^([A-Za-z_]+)\s*[=:]\s*(.*)$/.exec(line);
    if (section === 'api' && pair) out[pair[1]] = pair[2].trim();
  }
  return out;
}
