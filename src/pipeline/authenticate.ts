// Stage "authenticate": who is calling, for the operations that require a caller; then the
// "authenticated" hooks (the rate limiter), which may refuse the caller.
import { authenticate } from '../http/auth.js';
import type { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';

export function authenticateStage(hooks: PipelineHooks['authenticated']) {
  return function authenticateCaller(call: Call): void {
    if (!call.op.authenticated || call.upstream) return;
    call.actor = call.ex.user = authenticate(call.world.store, call.req.headers.authorization);
    for (const hook of hooks) hook(call);
  };
}
