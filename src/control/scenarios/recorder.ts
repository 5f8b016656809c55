// Recording (`--record <dir>` with `--proxy`): every upstream exchange of a session goes into one
// JSON scenario file, `<dir>/recording-<time>.json`, that `--scenario <file>` replays offline.
// The file is written again after each exchange (it is small), so a session stopped by a signal
// or a crash still leaves a replayable recording.
//
// A rule per distinct request: operation, decoded parameters, the caller's email. A request
// answered differently over the session (GET /messages before and after a send) gets one rule
// per answer, in order, each limited by `times` to how often it came; the last has no limit.
// Scenario params match as a subset, so rules with more parameters come first: a request is
// never answered by the rule of a less specific one.
//
// Secrets never reach the disk: the Authorization header is not recorded (only the email it
// names), `password` and `api_key` parameters are dropped, `api_key` fields of bodies redacted.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Answer, Call } from '../../pipeline/call.js';
import type { Rule, Scenario } from './types.js';

const SECRET_PARAMS = new Set(['password', 'api_key']);
const REDACTED = '<redacted>';

interface Request { operation: string; params: Record<string, unknown>; user: string | null }
interface Response { status: number; body: Record<string, unknown> }
interface Group { request: Request; answers: Array<{ response: Response; count: number }> }

export class Recorder {
  readonly file: string;
  private readonly groups = new Map<string, Group>();

  constructor(dir: string, now = new Date()) {
    mkdirSync(dir, { recursive: true });
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*$/, '');
    this.file = path.resolve(dir, `recording-${stamp}.json`);
    this.write();
  }

  /** Proxy's `onExchange`: adds the exchange and writes the file again. */
  readonly add = (call: Call, answer: Answer): void => {
    // A download or any answer that is not JSON cannot be replayed as a rule's body.
    if (!(answer.relay?.headers['content-type'] ?? '').includes('json')) return;
    const params: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(call.params ?? {})) if (!SECRET_PARAMS.has(k) && v !== undefined) params[k] = v;
    const request: Request = { operation: call.op.id, params: jsonCopy(params), user: basicAuthEmail(call.req.headers.authorization) };
    const response: Response = { status: answer.status, body: redact(jsonCopy(answer.body)) as Record<string, unknown> };
    const key = JSON.stringify(request);
    const group = this.groups.get(key) ?? { request, answers: [] };
    this.groups.set(key, group);
    const last = group.answers.at(-1);
    if (last && JSON.stringify(last.response) === JSON.stringify(response)) last.count++;
    else group.answers.push({ response, count: 1 });
    this.write();
  };

  scenario(): Scenario {
    const groups = [...this.groups.values()].sort((a, b) => Object.keys(b.request.params).length - Object.keys(a.request.params).length);
    const rules: Rule[] = groups.flatMap(({ request, answers }) => answers.map(({ response, count }, i) => ({
      operation: request.operation,
      ...(Object.keys(request.params).length ? { params: request.params } : {}),
      ...(request.user ? { user: request.user } : {}),
      ...(i < answers.length - 1 ? { times: count } : {}),
      respond: response,
    })));
    return { name: path.basename(this.file, '.json'), description: 'Recorded from an upstream server (teamchat-mock --record)', rules };
  }

  private write(): void {
    writeFileSync(this.file, `${JSON.stringify(this.scenario(), null, 2)}\n`, { mode: 0o600 });
  }
}

const jsonCopy = (v: unknown): any => JSON.parse(JSON.stringify(v));

/** The email of a Basic Authorization header; the key beside it is never kept. */
function basicAuthEmail(header: string | undefined): string | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : null;
}

/** `api_key` fields at any depth (fetch-api-key, bots) replaced by a placeholder. */
function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'api_key' && typeof v === 'string' ? REDACTED : redact(v)]));
}
