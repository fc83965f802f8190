import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

const src = (p: string) => resolve(__dirname, p);

/** Tests import the workspaces' TypeScript sources, so one instance of each module is loaded. */
export default defineConfig({
  resolve: {
    alias: [
      // The packages' modules by name (`@switch/core/estados`): each import names a module, there is no barrel.
      { find: /^@switch\/(core|connector-kit|platform|usecases)\/(.+)$/, replacement: src('packages/$1/src/$2') },
      { find: '@switch/gateway', replacement: src('services/gateway/src/index.ts') },
      { find: '@switch/router', replacement: src('services/router/src/index.ts') },
      { find: '@switch/bank-sim', replacement: src('services/bank-sim/src/index.ts') },
      { find: '@switch/notifier', replacement: src('services/notifier/src/index.ts') },
      { find: '@switch/reconciler', replacement: src('services/reconciler/src/index.ts') },
      { find: '@switch/embedded', replacement: src('services/embedded/src/index.ts') },
      { find: '@switch/panel', replacement: src('services/panel/src/index.ts') },
      // Each bank's emulator is its own entry point (tests and local runs only), listed before the package.
      { find: '@switch/bank-plaza/emulator', replacement: src('services/bank-plaza/emulator/index.ts') },
      { find: '@switch/bank-bancaribe/emulator', replacement: src('services/bank-bancaribe/emulator/index.ts') },
      { find: '@switch/bank-activo/emulator', replacement: src('services/bank-activo/emulator/index.ts') },
      { find: '@switch/bank-bnc/emulator', replacement: src('services/bank-bnc/emulator/index.ts') },
      { find: '@switch/bank-plaza', replacement: src('services/bank-plaza/src/index.ts') },
      { find: '@switch/bank-bancaribe', replacement: src('services/bank-bancaribe/src/index.ts') },
      { find: '@switch/bank-activo', replacement: src('services/bank-activo/src/index.ts') },
      { find: '@switch/bank-bnc', replacement: src('services/bank-bnc/src/index.ts') },
      { find: '@switch-pagos/client', replacement: src('kit/client/src/index.ts') },
      { find: '@switch-pagos/webhooks', replacement: src('kit/verifiers/typescript/src/index.ts') },
    ],
  },
  test: {
    // Unit, contract and API suites first; the end-to-end suites (many processes each) after them,
    // alone on the machine.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/**/*.test.ts', 'services/**/*.test.ts', 'kit/**/*.test.ts', 'test/**/*.test.ts'],
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
