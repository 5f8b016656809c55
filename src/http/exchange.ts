// One request and its answer, as the journal and the inspector see it.
import type { Operation } from '../contract/operations.js';
import type { ResponseProblem } from '../contract/contract.js';
import type { User } from '../store/state.js';
import type { Request } from 'express';

export interface Exchange {
  id: number;
  /** Mock-clock time the request arrived, ms. */
  time: number;
  /** performance.now() when the request arrived. */
  started: number;
  /** Real duration in ms, set when answered. */
  duration_ms: number;
  sandbox: string;
  method: string;
  path: string;
  operation: Operation | null;
  /** The feature level it was answered at (0 until routed). */
  level: number;
  user: User | null;
  /** The request's raw key/values (body, then query), before decoding. */
  raw: Record<string, unknown>;
  /** Calls `fn` with each key of `raw`, without building it (coverage counts them on every request). */
  forEachSentKey(fn: (key: string) => void): void;
  /** Decoded parameters, when decoding succeeded. */
  params: Record<string, unknown> | null;
  status: number;
  body: unknown;
  /** The body as sent (UTF-8 JSON), set once answered: observers reuse it rather than serialise again. */
  bodyBytes?: Buffer;
  /** The same body as text, when it was made as text (an answer without kept parts): written as such. */
  bodyText?: string;
  /** Problems of the response against the description. */
  problems: ResponseProblem[];
  /** Name of the scenario whose rule answered, if any. */
  scenario: string | null;
  /**
   * The length of one parameter's JSON, when whoever made the exchange knows it (a webhook call's
   * request, serialised to be sent): the journal sizes its entry without serialising it again.
   */
  sizedParam?: { key: string; chars: number };
}

/**
 * An Exchange as the pipeline makes it: `raw` (query then body, merged) is only built when read,
 * which the journal does for requests whose parameters did not decode.
 */
class ExchangeRecord implements Exchange {
  started = performance.now();
  duration_ms = 0;
  operation: Operation | null = null;
  level = 0;
  user: User | null = null;
  params: Record<string, unknown> | null = null;
  status = 0;
  body: unknown = null;
  bodyBytes?: Buffer;
  bodyText?: string;
  problems: ResponseProblem[] = [];
  scenario: string | null = null;
  #raw: Record<string, unknown> | null = null;

  constructor(
    readonly id: number,
    readonly time: number,
    public sandbox: string,
    readonly method: string,
    readonly path: string,
    private readonly query: Record<string, unknown>,
    private readonly form: Record<string, unknown>,
  ) {}

  get raw(): Record<string, unknown> {
    this.#raw ??= { ...this.query, ...this.form };
    return this.#raw;
  }

  forEachSentKey(fn: (key: string) => void): void {
    for (const key in this.query) fn(key);
    for (const key in this.form) if (!Object.hasOwn(this.query, key)) fn(key);
  }
}

/** A record of `req` in the journal's terms; `world` is the one serving it, if it could be chosen. */
export function exchangeOf(
  id: number,
  req: Request,
  world: { name: string; clock: { nowMs(): number } } | null,
  query: Record<string, unknown>,
): Exchange {
  const body = req.body && typeof req.body === 'object' ? req.body : {};
  // The template world (name '') stands in for a sandbox not made yet: the record names the sandbox asked for.
  const sandbox = (world?.name || req.mockSandboxWanted) ?? '';
  return new ExchangeRecord(id, world?.clock.nowMs() ?? Date.now(), sandbox, req.method, req.path, query, body);
}
