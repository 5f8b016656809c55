// Proxy mode (`--proxy <url>`): a request that no scenario answers goes to the upstream server as
// the client sent it, credentials included (the mock does not authenticate it), and the upstream's
// answer goes back unchanged: status, content type, body bytes. On the way it is checked against
// the description at the feature level the upstream reports, so the journal shows where the real
// server drifted from the description. `only` limits which operations go upstream; the others are
// answered from the mock's own state.
//
// The upstream is not trusted: its answer is read up to a bound (MAX_UPSTREAM_BYTES, else 502),
// an answer cut short or badly framed is a 502, cookies are not relayed, and an answer that is
// not JSON is served as inert (nosniff and a sandboxing CSP), so an upstream page cannot script
// the mock's own origin (where /__mock/state holds every API key). Paths with dot segments, plain
// or percent-encoded, are refused before anything is matched or forwarded.
import { isUtf8 } from 'node:buffer';
import type { Contract } from '../contract/contract.js';
import { DriftChecker } from '../contract/drift.js';
import type { Operation } from '../contract/operations.js';
import { ApiError, dotSegmentPath, upstreamMalformed, upstreamUnreachable } from '../errors.js';
import type { Answer, Call } from './call.js';
import type { Relay } from '../http/relay.js';

export interface ProxyOptions {
  /** The upstream site, e.g. https://chat.example.com (its API is under /api/v1). */
  upstream: string;
  /** operationIds that go upstream; absent: every operation. */
  only?: string[];
  /** Told of every upstream exchange (the recorder). */
  onExchange?: (call: Call, answer: Answer) => void;
}

/** Connection-level headers (RFC 9110 7.6.1) and those the mock sets itself are not passed on. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'expect',
  'accept-encoding',
  'content-encoding',
]);
/** Upstream headers never relayed: the mock's origin must not take an upstream's cookies. */
const DROPPED_HEADERS = new Set(['set-cookie', 'set-cookie2']);
/** Bytes of one upstream answer the mock reads at most (the largest API answers are a few MB). */
export const MAX_UPSTREAM_BYTES = 16 * 1024 * 1024;
/** What a relayed answer that is not JSON is served with: never sniffed, never run as a page of the mock's origin. */
const INERT_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "sandbox; default-src 'none'" };
/** A long-poll waits up to about a minute upstream; past this the upstream is taken as gone. */
const UPSTREAM_TIMEOUT_MS = 120_000;

export class Proxy {
  readonly site: string;
  private readonly only: Set<string> | null;
  private readonly drift: DriftChecker;
  private level: Promise<number | null> | null = null;

  constructor(
    private readonly options: ProxyOptions,
    contract: Contract,
  ) {
    this.site = new URL(options.upstream).href.replace(/\/+$/, '');
    this.only = options.only ? new Set(options.only) : null;
    for (const id of this.only ?? [])
      if (!contract.byId.has(id)) throw new Error(`--proxy-only: the description has no operation ${id}`);
    this.drift = new DriftChecker(contract);
  }

  goesUpstream(op: Operation): boolean {
    return !this.only || this.only.has(op.id);
  }

  /** Stage "choose-upstream" (after route): marks the calls that go upstream, so that the mock does not authenticate them. */
  readonly choose = (call: Call): void => {
    if (hasDotSegment(call.req.originalUrl)) throw dotSegmentPath();
    call.upstream = this.goesUpstream(call.op);
  };

  /** Stage "forward" (after intercept, so scenarios still answer first). */
  readonly forward = (call: Call): Promise<void> | void => {
    if (!call.upstream) return;
    return this.exchange(call).then((answer) => {
      call.answer = answer;
      this.options.onExchange?.(call, answer);
    });
  };

  /** The feature level the upstream reports (asked once; null when it does not say). */
  private upstreamLevel(): Promise<number | null> {
    this.level ??= fetch(`${this.site}/api/v1/server_settings`, {
      signal: AbortSignal.timeout(10_000),
      redirect: 'manual',
    })
      // Read up to the same bound as any upstream answer: the upstream is not trusted.
      .then((res) => readCapped(res, this.site))
      .then((bytes) => JSON.parse(bytes.toString('utf8')))
      .then((body: any) => (Number.isInteger(body?.zulip_feature_level) ? (body.zulip_feature_level as number) : null))
      .catch(() => {
        this.level = null;
        return null;
      });
    return this.level;
  }

  private async exchange(call: Call): Promise<Answer> {
    const { req } = call;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || HOP_HEADERS.has(k) || k.startsWith('x-mock-')) continue;
      headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    const body = formBody(req.body, req.method);
    // The parsed body is sent again form-encoded (what every endpoint takes); file parts are not relayed.
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    let res: Response;
    try {
      res = await fetch(`${this.site}${req.baseUrl}${req.url}`, {
        method: req.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
    } catch (err) {
      throw upstreamUnreachable(this.site, (err as any)?.cause?.code ?? (err as Error).message);
    }
    const bytes = await readCapped(res, this.site);
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!HOP_HEADERS.has(k) && !DROPPED_HEADERS.has(k)) out[k] = v;
    });
    if (!/^application\/(.+\+)?json\b/i.test(res.headers.get('content-type') ?? '')) Object.assign(out, INERT_HEADERS);
    const level = (await this.upstreamLevel()) ?? call.level;
    const contentType = res.headers.get('content-type') ?? 'none';
    let parsed: unknown = null;
    let json = true;
    let problems: Relay['problems'];
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
      problems = this.drift.check(call.op, res.status, parsed, level);
    } catch {
      json = false;
      problems = [{ path: '', message: `response is not JSON (content type ${contentType})` }];
    }
    const relay: Relay = { bytes, headers: out, problems, level, json };
    const answered = json
      ? parsed && typeof parsed === 'object'
        ? parsed
        : { value: parsed }
      : asRecorded(bytes, contentType);
    return { status: res.status, body: answered as Record<string, unknown>, relay, scenario: undefined };
  }
}

/** What the journal keeps of an answer that is not JSON: its type and its bytes, as text when they are UTF-8. */
function asRecorded(bytes: Buffer, contentType: string): Record<string, unknown> {
  return isUtf8(bytes)
    ? { content_type: contentType, text: bytes.toString('utf8') }
    : { content_type: contentType, base64: bytes.toString('base64') };
}

/** Whether a request target's path holds a `.` or `..` segment, plain or percent-encoded. */
function hasDotSegment(target: string): boolean {
  const pathOnly = target.split(/[?#]/, 1)[0];
  return pathOnly.split(/\/|%2f|%5c|\\/i).some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/** The body, read up to MAX_UPSTREAM_BYTES; a longer, cut-short or badly framed one is a 502. */
async function readCapped(res: Response, site: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_UPSTREAM_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw upstreamMalformed(site, `its answer of ${declared} bytes is over the limit of ${MAX_UPSTREAM_BYTES}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += chunk.length;
      if (size > MAX_UPSTREAM_BYTES) {
        await res.body?.cancel().catch(() => {});
        throw upstreamMalformed(site, `its answer is over the limit of ${MAX_UPSTREAM_BYTES} bytes`);
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw upstreamMalformed(
      site,
      `the answer was cut short or badly framed (${(err as any)?.cause?.code ?? (err as Error).message})`,
    );
  }
  return Buffer.concat(chunks);
}

/** The decoded form fields as a form body again, or undefined when the request had none. */
function formBody(body: unknown, method: string): string | undefined {
  if (method === 'GET' || method === 'HEAD' || !body || typeof body !== 'object') return undefined;
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    for (const one of Array.isArray(v) ? v : [v]) form.append(k, String(one));
  }
  return form.toString();
}
