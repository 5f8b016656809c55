// Recording (`--record <dir>` with `--proxy`): every upstream exchange of a session goes into one
// file, `<dir>/recording-<time>.jsonl`, that `--scenario <file>` replays offline. The file is JSON
// Lines, appended one exchange at a time and never rewritten: a session stopped by a signal or a
// crash still leaves a replayable recording, and a long session costs one line per exchange, not
// a rewrite of everything recorded so far. The first line says what the file is.
//
// Replaying groups the lines into rules (recordingScenario): a rule per distinct request
// (operation, decoded parameters, the caller's email). A request answered differently over the
// session (GET /messages before and after a send) gets one rule per answer, in order, each
// limited by `times` to how often it came; the last has no limit. Scenario params match as a
// subset, so rules with more parameters come first: a request is never answered by the rule of
// a less specific one.
//
// Secrets never reach the disk: the Authorization header is not recorded (only the email it
// names), secret parameters (redact.ts: passwords, API keys, tokens) are dropped, secret fields
// of bodies and temporary upload URLs' tokens redacted.
//
// The folder may be one other users can write to: the file is written only in a folder the
// user owns, and created exclusively without following a symbolic link, so nothing planted there
// (a link to another file, a file left open to others) is ever written through.
import { constants, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Answer, Call } from '../../pipeline/call.js';
import type { Rule, Scenario } from './types.js';
import { isSecretKey, redactPath } from '../redact.js';
import { basicCredentials } from '../../http/auth.js';

/** The recording's placeholder (a scenario file's own, not the journal's `[redacted]`). */
const REDACTED = '<redacted>';
/** What the first line of a recording says. */
export const RECORDING_FORMAT = 'teamchat-mock recording 1';
/** One exchange's line at most; a larger answer is noted as skipped, not recorded. */
export const MAX_RECORDED_EXCHANGE_BYTES = 4 * 1024 * 1024;
/**
 * A whole recording at most: a client that never stops sending would otherwise fill the disk, and
 * a replay reads the file as one string. Past it, one line says the recording stopped.
 */
const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

interface Request {
  operation: string;
  params: Record<string, unknown>;
  user: string | null;
}
interface Response {
  status: number;
  body: Record<string, unknown>;
}
/** A line of a recording after the first. */
type Line =
  | { request: Request; response: Response }
  | { skipped: { operation: string; status: number; bytes: number } }
  | { stopped: { bytes: number } };

/** Makes `dir` (0700) when missing; refuses one that is a link or that another user owns. */
function ownedFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) throw new Error(`--record: ${dir} is not a folder`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
  if (uid >= 0 && stat.uid !== uid)
    throw new Error(`--record: ${dir} belongs to another user (uid ${stat.uid}); record into a folder of your own`);
}

/** Creates the file exclusively (no link followed, nothing already there reused), readable by its owner only. */
function createExclusively(dir: string, stamp: string): { file: string; fd: number } {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND | constants.O_NOFOLLOW;
  for (let n = 0; ; n++) {
    const file = path.resolve(dir, `recording-${stamp}${n ? `-${n}` : ''}.jsonl`);
    try {
      return { file, fd: openSync(file, flags, 0o600) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n > 100) throw err;
    }
  }
}

export class Recorder {
  readonly file: string;
  private readonly fd: number;
  /** Bytes written so far; null once the recording stopped at its bound. */
  private written: number | null = 0;

  /** `maxBytes`: the recording's bound (tests make it small). */
  constructor(
    dir: string,
    now = new Date(),
    private readonly maxBytes = MAX_RECORDING_BYTES,
  ) {
    ownedFolder(dir);
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').replace(/\..*$/, '');
    ({ file: this.file, fd: this.fd } = createExclusively(dir, stamp));
    this.append({ format: RECORDING_FORMAT, name: path.basename(this.file, '.jsonl'), started: now.toISOString() });
  }

  /** Proxy's `onExchange`: appends the exchange. */
  readonly add = (call: Call, answer: Answer): void => {
    // A download or any answer that is not JSON cannot be replayed as a rule's body.
    if (!answer.relay?.json || !(answer.relay.headers['content-type'] ?? '').includes('json')) return;
    const params: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(call.params ?? {})) if (!isSecretKey(k) && v !== undefined) params[k] = v;
    const request: Request = {
      operation: call.op.id,
      params: jsonCopy(params),
      user: basicAuthEmail(call.req.headers.authorization),
    };
    const response: Response = {
      status: answer.status,
      body: redact(jsonCopy(answer.body)) as Record<string, unknown>,
    };
    const line = JSON.stringify({ request, response } satisfies Line);
    if (Buffer.byteLength(line) > MAX_RECORDED_EXCHANGE_BYTES) {
      this.append({
        skipped: { operation: call.op.id, status: answer.status, bytes: Buffer.byteLength(line) },
      } satisfies Line);
    } else {
      this.write(`${line}\n`);
    }
  };

  private append(value: Line | Record<string, unknown>): void {
    this.write(`${JSON.stringify(value)}\n`);
  }

  /** Writes a line unless the recording has stopped; the first line past the bound stops it. */
  private write(text: string): void {
    if (this.written === null) return;
    const bytes = Buffer.byteLength(text);
    if (this.written + bytes > this.maxBytes) {
      writeSync(this.fd, `${JSON.stringify({ stopped: { bytes: this.written } } satisfies Line)}\n`);
      this.written = null;
      return;
    }
    writeSync(this.fd, text);
    this.written += bytes;
  }
}

/** Whether a file's text is a recording (its first line names the format). */
export function isRecording(text: string): boolean {
  try {
    return JSON.parse(text.slice(0, text.indexOf('\n') + 1 || undefined)).format === RECORDING_FORMAT;
  } catch {
    return false;
  }
}

/** A recording's exchanges as one scenario (see the header comment); a cut-off last line is ignored. */
export function recordingScenario(text: string, fallbackName: string): Scenario {
  const [head, ...rest] = text.split('\n');
  const header = JSON.parse(head) as { format: string; name?: string };
  if (header.format !== RECORDING_FORMAT) throw new Error(`not a recording (${RECORDING_FORMAT})`);
  const groups = new Map<string, { request: Request; answers: Array<{ response: Response; count: number }> }>();
  rest.forEach((raw, i) => {
    if (!raw.trim()) return;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch (err) {
      if (i === rest.length - 1 || rest.slice(i + 1).every((l) => !l.trim())) return; // the crash's half line
      throw new Error(`line ${i + 2} is not JSON (${(err as Error).message})`);
    }
    if ('skipped' in line || 'stopped' in line) return;
    const key = JSON.stringify(line.request);
    const group = groups.get(key) ?? { request: line.request, answers: [] };
    groups.set(key, group);
    const last = group.answers.at(-1);
    if (last && JSON.stringify(last.response) === JSON.stringify(line.response)) last.count++;
    else group.answers.push({ response: line.response, count: 1 });
  });
  const ordered = [...groups.values()].sort(
    (a, b) => Object.keys(b.request.params).length - Object.keys(a.request.params).length,
  );
  const rules: Rule[] = ordered.flatMap(({ request, answers }) =>
    answers.map(({ response, count }, i) => ({
      operation: request.operation,
      ...(Object.keys(request.params).length ? { params: request.params } : {}),
      ...(request.user ? { user: request.user } : {}),
      ...(i < answers.length - 1 ? { times: count } : {}),
      respond: response,
    })),
  );
  return {
    name: header.name ?? fallbackName,
    description: 'Recorded from an upstream server (teamchat-mock --record)',
    rules,
  };
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
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, isSecretKey(k) && typeof v === 'string' ? REDACTED : redact(v)]),
  );
}
