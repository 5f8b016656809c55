import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/contract-guard.ts'],
    testTimeout: 20000,
    hookTimeout: 30000,
    // The JSON report feeds the totals line that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
