// Stage "intercept": the hooks that may answer instead of the view (scenarios). Synchronous
// unless a hook waits: a promise costs every request a turn of the event loop.
import type { Answer, Call } from './call.js';
import type { PipelineHooks } from './hooks.js';

function take(call: Call, hit: Answer | 'drop' | null): boolean {
  if (hit === 'drop') {
    call.dropped = true;
    call.ex.scenario ??= 'drop';
    return true;
  }
  if (!hit) return false;
  call.ex.scenario = hit.scenario ?? null;
  call.answer = hit;
  return true;
}

export function interceptStage(hooks: PipelineHooks['intercept']) {
  function from(call: Call, i: number): Promise<void> | void {
    for (; i < hooks.length; i++) {
      const hit = hooks[i](call);
      if (hit instanceof Promise)
        return hit.then((h) => {
          if (!take(call, h)) return from(call, i + 1);
        });
      if (take(call, hit)) return;
    }
  }
  return function intercept(call: Call): Promise<void> | void {
    return hooks.length ? from(call, 0) : undefined;
  };
}
