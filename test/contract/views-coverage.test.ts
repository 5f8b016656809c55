// Walks the description: every operation must have a view, except the ones listed here as not
// implemented yet (they answer 501 with an envelope). The list must only shrink.
import { describe, expect, it } from 'vitest';
import { sharedContract } from '../../src/server.js';
import { views } from '../../src/domain/views.js';

/** Operations that still answer 501. */
const NOT_IMPLEMENTED_YET: string[] = [];

describe('views', () => {
  const contract = sharedContract();

  it('exist for every operation of the description, open ones for operations without security', () => {
    const missing = contract.operations
      .filter((op) => !(op.authenticated ? views.authenticated : views.open)[op.id as never])
      .map((op) => op.id);
    expect(missing.sort()).toEqual([...NOT_IMPLEMENTED_YET].sort());
  });

  it('exist only for operations the description has', () => {
    const extra = [...Object.keys(views.authenticated), ...Object.keys(views.open)].filter(
      (id) => !contract.byId.has(id),
    );
    expect(extra).toEqual([]);
  });
});
