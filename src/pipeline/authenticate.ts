// Stage "authenticate": who is calling, for the operations that require a caller.
import { authenticate } from '../http/auth.js';
import type { Call } from './call.js';

export function authenticateStage(call: Call): void {
  if (!call.op.authenticated) return;
  call.actor = call.ex.user = authenticate(call.world.store, call.req.headers.authorization);
}
