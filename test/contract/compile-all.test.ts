// Validators compile lazily, on their first use, to keep start-up short: this makes sure that
// every schema of both descriptions still compiles, used or not.
import { describe, expect, it } from 'vitest';
import { compileContract } from '../../src/contract/contract.js';

describe('the descriptions', () => {
  it.each(['api', 'control'] as const)('%s: every validator compiles', (name) => {
    expect(() => compileContract(name).compileAll()).not.toThrow();
  });
});
