// Uploading a file as multipart and downloading it from the site's /user_uploads/..., as clients do.
import type { TestServer } from './server.js';
import { basicAuth } from './server.js';

/** A 1x1 transparent PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** `headers`: extra request headers (X-Mock-Sandbox). */
export async function upload(
  t: TestServer,
  who: string,
  files: Array<{ name: string; bytes: Buffer; type?: string; field?: string }>,
  headers: Record<string, string> = {},
) {
  const u = t.user(who);
  const form = new FormData();
  for (const f of files)
    form.append(f.field ?? 'filename', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? '' }), f.name);
  const res = await fetch(`${t.base}/api/v1/user_uploads`, {
    method: 'POST',
    body: form,
    headers: { ...headers, authorization: basicAuth(u.delivery_email, u.api_key) },
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** GET of an upload's URL (relative to the site) as `who`, or without credentials. */
export async function download(
  t: TestServer,
  who: string | null,
  url: string,
  extraHeaders: Record<string, string> = {},
) {
  const headers: Record<string, string> = { ...extraHeaders };
  if (who) {
    const u = t.user(who);
    headers.authorization = basicAuth(u.delivery_email, u.api_key);
  }
  const res = await fetch(`${t.base}${url}`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: any = null;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    /* a file */
  }
  return {
    status: res.status,
    bytes,
    body,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    headers: res.headers,
  };
}

/** GET /api/v1/user_uploads/... for an upload's URL (relative to the site): its temporary URL, as `who`. */
export function temporaryUrlOf(t: TestServer, who: string, url: string) {
  return t.as(who).get(url);
}

/**
 * Any API call as a multipart body, with form fields and file parts (a bot's avatar, say), as
 * the JavaScript client sends it. `headers`: e.g. X-Mock-Feature-Level.
 */
export async function multipart(
  t: TestServer,
  who: string,
  method: 'POST' | 'PATCH',
  path: string,
  fields: Record<string, string>,
  files: Array<{ name: string; bytes: Buffer; type?: string; field?: string }>,
  headers: Record<string, string> = {},
) {
  const u = t.user(who);
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(f.field ?? 'file', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? '' }), f.name);
  const res = await fetch(`${t.base}/api/v1${path}`, {
    method,
    body: form,
    headers: { authorization: basicAuth(u.delivery_email, u.api_key), ...headers },
  });
  return { status: res.status, body: (await res.json()) as any };
}
