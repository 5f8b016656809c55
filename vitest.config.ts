import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/contract-guard.ts'],
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});
