import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end tests spawn dist/index.js; building it once up front keeps them honest and fast.
    globalSetup: ['test/support/global-setup.ts'],
  },
});
