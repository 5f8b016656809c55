// Deep-merges a JSON scenario's `state` into the world's state: objects merge key by key,
// anything else (arrays included) replaces. Keys that would reach prototypes are refused.
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export function applyStatePatch(target: Record<string, any>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (FORBIDDEN.has(key)) continue;
    const current = target[key];
    if (
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      current &&
      typeof current === 'object' &&
      !Array.isArray(current)
    ) {
      applyStatePatch(current, value as Record<string, unknown>);
    } else {
      target[key] = structuredClone(value);
    }
  }
}
