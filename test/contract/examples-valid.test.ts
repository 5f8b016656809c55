// Every example of the description (success and error alike) is an answer the mock's own response
// check accepts: client teams read the examples as what the mock answers, and scenarios answer
// them verbatim (`respond: {example: NAME}`), so an example the check would refuse is a promise
// the mock cannot keep.
import { describe, expect, it } from 'vitest';
import { ErrorCatalog } from '../../src/control/scenarios/error-catalog.js';
import { sharedContract } from '../../src/server.js';

describe('the description examples', () => {
  const contract = sharedContract();
  const catalog = new ErrorCatalog(contract);
  const examples = contract.operations.flatMap((op) =>
    [...catalog.errorExamples(op.id), ...catalog.successExamples(op.id)].map((ex) => ({ op, ex })),
  );

  it('finds the examples it checks, success ones among them', () => {
    expect(examples.length).toBeGreaterThan(1500);
    expect(examples.filter(({ ex }) => ex.body.result === 'success').length).toBeGreaterThan(150);
  });

  it('every example validates against its response schema', () => {
    const invalid: string[] = [];
    for (const { op, ex } of examples) {
      const validate = op.responses.get(String(ex.status)) ?? op.responses.get('default');
      if (!validate) invalid.push(`${op.id} ${ex.status} ${ex.name}: no response described for that status`);
      else if (!validate(ex.body))
        invalid.push(`${op.id} ${ex.status} ${ex.name}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
    expect(invalid).toEqual([]);
  });
});
