import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

const src = (p: string) => resolve(__dirname, p);

/** Tests import the workspaces' TypeScript sources, so one instance of each module is loaded. */
export default defineConfig({
  resolve: {
    alias: {
      '@switch/shared': src('shared/src/index.ts'),
      '@switch/gateway': src('services/gateway/src/index.ts'),
      '@switch/router': src('services/router/src/index.ts'),
      '@switch/bank-sim': src('services/bank-sim/src/index.ts'),
      '@switch/notifier': src('services/notifier/src/index.ts'),
      '@switch/reconciler': src('services/reconciler/src/index.ts'),
      '@switch/embedded': src('services/embedded/src/index.ts'),
      '@switch/panel': src('services/panel/src/index.ts'),
      // Each bank's emulator is its own entry point (tests and local runs only), listed before the package.
      '@switch/bank-plaza/emulator': src('services/bank-plaza/emulator/index.ts'),
      '@switch/bank-bancaribe/emulator': src('services/bank-bancaribe/emulator/index.ts'),
      '@switch/bank-activo/emulator': src('services/bank-activo/emulator/index.ts'),
      '@switch/bank-bnc/emulator': src('services/bank-bnc/emulator/index.ts'),
      '@switch/bank-plaza': src('services/bank-plaza/src/index.ts'),
      '@switch/bank-bancaribe': src('services/bank-bancaribe/src/index.ts'),
      '@switch/bank-activo': src('services/bank-activo/src/index.ts'),
      '@switch/bank-bnc': src('services/bank-bnc/src/index.ts'),
      '@switch-pagos/client': src('kit/client/src/index.ts'),
      '@switch-pagos/webhooks': src('kit/verifiers/typescript/src/index.ts'),
    },
  },
  test: {
    // Unit, contract and API suites first; the end-to-end suites (many processes each) after them,
    // alone on the machine.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'services/**/*.test.ts', 'kit/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', 'test/e2e/**', 'test/deploy/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // One file at a time: each starts a dozen processes that join Kafka groups; side by side on two
        // cores their joins and rebalances starved each other past the readiness waits.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/deploy/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
        },
      },
    ],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/infra/global-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
