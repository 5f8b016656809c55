// Stage "authenticate": who is calling, for the operations that require a caller; then the
// "authenticated" hooks (the rate limiter), which may refuse the caller.
import { authenticate } from '../http/auth.js';
import type { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';

/** Settles a routed (and, where needed, authenticated) request in its world: may create a sandbox. */
export type Adopt = (call: Call) => void;

export function authenticateStage(hooks: PipelineHooks['authenticated'], adopt?: Adopt) {
  return function authenticateCaller(call: Call): void {
    // Unauthenticated operations, and calls the proxy sends upstream (the upstream judges their credentials).
    if (!call.op.authenticated || call.upstream) {
      adopt?.(call);
      return;
    }
    const before = call.world;
    call.actor = call.ex.user = authenticate(call.world.store, call.req.headers.authorization);
    // A sandbox is made only now, for a caller who proved who they are; in it, the caller is its own copy.
    adopt?.(call);
    if (call.world !== before)
      call.actor = call.ex.user = authenticate(call.world.store, call.req.headers.authorization);
    for (const hook of hooks) hook(call);
  };
}
