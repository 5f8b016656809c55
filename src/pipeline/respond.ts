// Stage "respond": the decided answer is checked and written once (or the connection dropped).
// Durable persistence holds a response back until the request's changes are on disk.
import type { Responder } from '../http/respond.js';
import type { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';

export function respondStage(responder: Responder, hooks: Pick<PipelineHooks, 'beforeRespond' | 'afterRespond'>) {
  function write(call: Call): void {
    const { answer, res, ex } = call;
    if (call.dropped || !answer) {
      ex.status = 0;
      call.req.socket.destroy();
      return;
    }
    if (answer.relay) responder.relay(res, ex, answer.status, answer.body, answer.relay);
    else if (answer.file) responder.sendFile(res, ex, answer.file);
    else if (answer.bytes) responder.replay(res, ex, answer.body, answer.bytes, answer.text);
    else responder.finish(res, ex, answer.status, answer.body, answer.headers);
    for (const hook of hooks.afterRespond) hook(call);
  }
  return function respond(call: Call): Promise<void> | void {
    if (call.world.store.version !== call.versionBefore && call.answer) {
      for (const hook of hooks.beforeRespond) {
        const wait = hook(call);
        if (wait) return wait.then(() => write(call));
      }
    }
    write(call);
  };
}
