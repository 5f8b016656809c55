// The feature levels a part of the description exists at, from its x-feature-level and x-removed-at.

/** [added, removed) from the x-feature-level / x-removed-at extensions of any of `sources`. */
export function levelRange(...sources: any[]): { addedAt: number; removedAt: number } {
  let addedAt = 0;
  let removedAt = Number.POSITIVE_INFINITY;
  for (const s of sources) {
    if (typeof s?.['x-feature-level'] === 'number') addedAt = Math.max(addedAt, s['x-feature-level']);
    if (typeof s?.['x-removed-at'] === 'number') removedAt = Math.min(removedAt, s['x-removed-at']);
  }
  return { addedAt, removedAt };
}
