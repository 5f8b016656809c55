// Answers to reads, kept while nothing they depend on can have changed. A read's answer is a
// function of the world's state, the clock's second (every time in the API is whole seconds), the
// caller, the feature level and the request's URL; so an answer is reused, bytes and all, until
// the state changes or the second turns. Clients poll the same reads over and over (the
// subscription list, the user list); rebuilding, checking and serialising each of those answers
// again was most of what a read cost.
import type { Store } from '../store/store.js';
import type { World } from '../world.js';
import { hasBody } from '../http/body.js';
import type { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';

interface CachedAnswer {
  body: Record<string, unknown>;
  bytes: Buffer;
  /** Its text, when it was made as text (see Exchange.bodyText). */
  text?: string;
}

/** Enough for every read a client loop makes; past it the cache starts over. */
const MAX_ENTRIES = 500;
/** Large answers (a long message history) are cheap to rebuild relative to the memory they hold. */
const MAX_BYTES = 256 * 1024;
/** What one world's cache may hold in answers' bytes (their objects take about as much again). */
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;

export class AnswerCache {
  private store: Store | null = null;
  private version = -1;
  private second = -1;
  private readonly entries = new Map<string, CachedAnswer>();
  private bytes = 0;

  /** The cached answer for `key`, if the state and the second are those it was made at. */
  get(store: Store, second: number, key: string): CachedAnswer | undefined {
    if (store !== this.store || store.version !== this.version || second !== this.second) {
      this.clearEntries();
      this.store = store;
      this.version = store.version;
      this.second = second;
      return undefined;
    }
    return this.entries.get(key);
  }

  /** Keeps an answer made at `version` and `second` (a read that changed the state is not kept). */
  put(store: Store, version: number, second: number, key: string, answer: CachedAnswer): void {
    if (store !== this.store || version !== this.version || store.version !== version || second !== this.second) return;
    if (answer.bytes.length > MAX_BYTES) return;
    if (this.entries.size >= MAX_ENTRIES || this.bytes + answer.bytes.length > MAX_TOTAL_BYTES) this.clearEntries();
    this.entries.set(key, answer);
    this.bytes += answer.bytes.length;
  }

  private clearEntries(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** The part of a request besides the world, state and second that a read's answer depends on. */
function answerKey(call: Call): string {
  return `${call.op.id} ${call.actor?.user_id ?? ''} ${call.level} ${call.req.url}`;
}

/**
 * The hooks that reuse answers: before "handle", a kept answer for the same read in the same state
 * and second; after "respond", the new answer of a read that changed nothing and broke nothing.
 * Reads with a body are not reused (GET /events, marked x-changes-state, never is).
 */
export function answerCacheHooks(): Pick<PipelineHooks, 'beforeHandle' | 'afterRespond'> {
  const caches = new WeakMap<World, AnswerCache>();
  const cacheOf = (world: World) => {
    let cache = caches.get(world);
    if (!cache) caches.set(world, (cache = new AnswerCache()));
    return cache;
  };
  return {
    beforeHandle: [
      (call) => {
        if (!call.op.cacheable || hasBody(call.req)) return null;
        call.second = call.world.clock.now();
        call.reuseKey = answerKey(call);
        const cached = cacheOf(call.world).get(call.world.store, call.second, call.reuseKey);
        return cached ? { status: 200, body: cached.body, bytes: cached.bytes, text: cached.text } : null;
      },
    ],
    afterRespond: [
      (call) => {
        const { world, ex } = call;
        if (
          call.reuseKey === null ||
          call.answer?.bytes ||
          ex.status !== 200 ||
          ex.problems.length ||
          world.clock.now() !== call.second
        )
          return;
        cacheOf(world).put(world.store, call.versionBefore, call.second, call.reuseKey, {
          body: ex.body as Record<string, unknown>,
          bytes: ex.bodyBytes!,
          text: ex.bodyText,
        });
      },
    ],
  };
}
