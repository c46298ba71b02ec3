import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for unit and integration tests; end-to-end journeys run with Playwright in packages/e2e.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine, where the files (each with its
    // own database and broker, many waiting on sockets, timers and child servers) then ran one after another. Three
    // on two cores: the whole suite took 368 s, against 624 s with two.
    maxWorkers: Math.max(3, availableParallelism()),
    projects: [
      { test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts', 'packages/protocol/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'console', include: ['packages/console/src/**/*.test.ts', 'packages/locales/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['packages/server/{src,test}/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'agent',
          include: ['packages/agent/test/**/*.test.ts', 'packages/agent/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
