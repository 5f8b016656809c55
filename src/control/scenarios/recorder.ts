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
// names), secret parameters (redact.ts: passwords, API keys, tokens) are dropped, secret fields
// of bodies and temporary upload URLs' tokens redacted.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Answer, Call } from '../../pipeline/call.js';
import type { Rule, Scenario } from './types.js';
import { isSecretKey, redactPath } from '../redact.js';
import { basicCredentials } from '../../http/auth.js';

/** The recording's placeholder (a scenario file's own, not the journal's `[redacted]`). */
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
    for (const [k, v] of Object.entries(call.params ?? {})) if (!isSecretKey(k) && v !== undefined) params[k] = v;
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

/** A copy, with the tokens of temporary upload URLs in any string replaced. */
const jsonCopy = (v: unknown): any => JSON.parse(redactPath(JSON.stringify(v)));

/** The email of a Basic Authorization header; the key beside it is never kept. */
function basicAuthEmail(header: string | undefined): string | null {
  try {
    return basicCredentials(header)?.[0] || null;
  } catch {
    return null; // malformed: the upstream refused it anyway
  }
}

/** Secret fields at any depth (fetch-api-key's api_key, bots' ...) replaced by a placeholder. */
function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretKey(k) && typeof v === 'string' ? REDACTED : redact(v)]));
}
