import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    reporters: ['default', './test/fixtures/summary-reporter.ts'],
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/fixtures/global-setup.ts'],
    setupFiles: ['test/fixtures/setup-env.ts'],
    // Forks isolate process.env and the module-scope clients per test file; two cores, two workers.
    pool: 'forks',
    maxWorkers: 2,
    // Integration tests talk to a JVM and an HTTP server; the emulators take a few seconds to start. Under
    // the whole suite's load a test of 3 s alone once took ten times as long: a time-out is for a hang.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // expect.poll waits for a page or a stream to catch up; a loaded two-core machine needs more than 1 s.
    expect: { poll: { timeout: 15_000 } },
    env: {
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    },
  },
});
