/**
 * The dependency rules of the packages (docs: README "Layout"; `npm run deps`, run by CI).
 *
 *   @switch/core  ←  @switch/connector-kit  ←  @switch/platform  ←  @switch/usecases  ←  services/*
 *
 * A bank folder (services/bank-*) builds its connector on the core and the kit only; its process edge
 * (src/main.ts, src/service.ts, src/config.ts, emulator/main.ts: reading the environment and hosting the
 * connector on the platform) is wiring like any service's main. A service never reaches into another
 * service's files. No import circle anywhere, type-only imports included.
 */
const TESTS = ['\\.test\\.ts$', '^packages/[^/]+/test/'];
const NODE_IO =
  '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|dns|dns/promises|tls|cluster|worker_threads|readline|os|v8|vm|inspector|process|module)$';
// A bank's process edge: its entry points and the settings they read (main, service, config), which may use the platform.
const BANK_EDGE = '^services/bank-[^/]+/(src/(main|service|config)|emulator/(main|config))(\\.test)?\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: move the declaration both sides need to the module that owns it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-core',
      severity: 'error',
      comment: '@switch/core is the pure core: it imports nothing else of the project.',
      from: { path: '^packages/core/' },
      to: { path: '^(packages/(connector-kit|platform|usecases)|services|kit|test)/' },
    },
    {
      name: 'core-without-io',
      severity: 'error',
      comment: '@switch/core does no I/O: no file system, network, process or child processes.',
      from: { path: '^packages/core/', pathNot: TESTS },
      to: { dependencyTypes: ['core'], path: NODE_IO },
    },
    {
      name: 'kit-on-core',
      severity: 'error',
      comment: '@switch/connector-kit depends on the core only.',
      from: { path: '^packages/connector-kit/' },
      to: { path: '^(packages/(platform|usecases)|services|kit|test)/' },
    },
    {
      name: 'platform-below-usecases',
      severity: 'error',
      comment: '@switch/platform depends on the core and the kit only.',
      from: { path: '^packages/platform/' },
      to: { path: '^(packages/usecases|services|kit|test)/' },
    },
    {
      name: 'usecases-below-services',
      severity: 'error',
      comment: '@switch/usecases depends on the core, the kit and the platform only.',
      from: { path: '^packages/usecases/' },
      to: { path: '^(services|kit|test)/' },
    },
    {
      name: 'bank-on-core-and-kit',
      severity: 'error',
      comment: "A bank's connector and emulator import only @switch/core and @switch/connector-kit.",
      from: { path: '^services/bank-[^/]+/(src|emulator)/', pathNot: BANK_EDGE },
      to: { path: '^packages/(platform|usecases)/' },
    },
    {
      name: 'bank-connector-without-io',
      severity: 'error',
      comment:
        "A bank's connector reaches its bank through the kit's send, never with Node's own I/O or an npm package (bank-sim is the simulated bank itself: its journal file is the bank's ledger).",
      from: { path: '^services/bank-(?!sim/)[^/]+/src/', pathNot: [BANK_EDGE, ...TESTS] },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
        pathNot: '^(node:)?(crypto|async_hooks|url|util|buffer|string_decoder)$',
      },
    },
    {
      name: 'emulator-http-only',
      severity: 'error',
      comment: "A bank's emulator serves HTTP (node:http, node:net) and uses no other I/O.",
      from: { path: '^services/bank-[^/]+/emulator/', pathNot: [BANK_EDGE, ...TESTS] },
      to: { dependencyTypes: ['core'], path: '^(node:)?(fs|fs/promises|child_process|dgram|cluster|worker_threads|vm|inspector)$' },
    },
    {
      name: 'services-apart',
      severity: 'error',
      comment:
        "A service never imports another service's files; the embedded switch composes services through their packages' entry points.",
      from: { path: '^services/([^/]+)/' },
      to: {
        path: '^services/',
        pathNot: ['^services/$1/', '^services/[^/]+/(src/)?index\\.ts$', '^services/bank-[^/]+/emulator/index\\.ts$'],
      },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment:
        "Every import resolves (an unresolved one would escape the rules above). The published kit's packages resolve to their build, which a check before the build does not have.",
      from: {},
      to: { couldNotResolve: true, pathNot: '^@switch-pagos/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // `source` first: a package's module is its TypeScript file, so the rules need no build.
      conditionNames: ['source', 'require', 'node', 'default'],
      extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['source', 'main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
