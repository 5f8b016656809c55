// The places where other parts of the mock attach to the request pipeline, by stage name
// (like Fastify's onRequest/preHandler/onSend/onResponse): scenarios intercept, the answer cache
// answers before the view and keeps answers after, durable persistence holds the response back,
// the journal and the log lines record; the rate limiter counts authenticated callers.
import type { Answer, Call } from './call.js';
import type { Exchange } from '../http/exchange.js';

type MaybePromise<T> = T | Promise<T>;

export interface PipelineHooks {
  /** authenticate, once the caller is known: may refuse by throwing (the rate limiter counts here). */
  authenticated: Array<(call: Call) => void>;
  /** intercept: may answer instead of the view (a scenario's rule), or ask to drop the connection. */
  intercept: Array<(call: Call) => MaybePromise<Answer | 'drop' | null>>;
  /** handle, before the view: may answer without running it (a reused answer). */
  beforeHandle: Array<(call: Call) => Answer | null>;
  /** respond, before writing: awaited when the request changed its world (durable writes). */
  beforeRespond: Array<(call: Call) => Promise<void> | undefined>;
  /** respond, after writing: the answer as sent (the answer cache keeps reads). */
  afterRespond: Array<(call: Call) => void>;
  /** record: every finished exchange, answered or dropped (journal, log lines). */
  record: Array<(ex: Exchange) => void>;
}

export function emptyHooks(): PipelineHooks {
  return { authenticated: [], intercept: [], beforeHandle: [], beforeRespond: [], afterRespond: [], record: [] };
}
