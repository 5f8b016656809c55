// The clock as the control API shows it.
import type { World } from '../world.js';

export function clockView(world: World) {
  const s = world.clock.state();
  return {
    now_ms: Math.round(s.now_ms),
    now: Math.floor(s.now_ms / 1000),
    iso: new Date(s.now_ms).toISOString(),
    frozen: s.frozen,
    offset_ms: Math.round(s.offset_ms),
    next_delivery: world.nextDelivery(),
  };
}
