/**
 * Distributed tracing (OpenTelemetry) for one service process.
 *
 * A service's `main.ts` starts it on its first line, before anything loads kafkajs, mongodb, fastify
 * or undici (the adapters do, so this module is imported on its own, first):
 *
 *     import { startTracing } from '@switch/platform/telemetry/tracing';
 *     import { loadTracingConfig } from '@switch/platform/config/tracing';
 *     startTracing('gateway', loadTracingConfig());
 *
 * Off unless OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_TRACES_EXPORTER
 * other than `none`) is set; OTEL_SDK_DISABLED=true turns it off whatever else is set. When off nothing
 * below `@opentelemetry/api` is even loaded: no SDK, no exporter, no module patched, and the API calls
 * the code makes (spans, propagation, the logger's trace ids) are no-ops.
 *
 * When on, everything else is the standard OTEL_* variables read by the SDK: OTEL_SERVICE_NAME
 * (default: the name passed here), OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG),
 * OTEL_PROPAGATORS (default W3C tracecontext + baggage), OTEL_BSP_* (batching), OTEL_EXPORTER_OTLP_*
 * (endpoint, headers, timeout). The exporter is OTLP over HTTP/JSON unless OTEL_EXPORTER_OTLP(_TRACES)_PROTOCOL
 * or OTEL_TRACES_EXPORTER asks for another one the SDK knows. Only traces are set up: metrics stay on
 * Prometheus (`/metrics`) unless OTEL_METRICS_EXPORTER is set, and OTel logs unless OTEL_LOGS_EXPORTER is.
 *
 * Instrumented: node:http (server spans of the gateway, client spans to the schema registry), undici and
 * global fetch (bank calls, webhook attempts), kafkajs (a producer span per publish with the W3C
 * `traceparent` injected into the message headers, a consumer span per delivered message continuing
 * that trace), mongodb (commands, only inside a trace: pollers' queries make none) and fastify
 * (`@fastify/otel`: request and handler spans under the HTTP server span).
 *
 * Spans still buffered when the process exits are flushed first: while tracing is on, `process.exit`
 * waits (at most OTEL_EXPORTER_OTLP_TIMEOUT, capped at 10 s) for the SDK to shut down, so the graceful
 * shutdown of `onShutdown` (which ends with `process.exit`) exports the last spans.
 */
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { TracingConfig } from '../config/tracing';

/** Requests on these paths (probes, scrapes) make no spans. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const envList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** Whether the configuration asks for traces (see the file's comment). */
export function tracingRequested(config: TracingConfig): boolean {
  if (config.disabled?.toLowerCase() === 'true') return false;
  const exporters = envList(config.tracesExporter);
  if (exporters.length > 0) return !(exporters.length === 1 && exporters[0] === 'none');
  return Boolean(config.endpoint || config.tracesEndpoint);
}

/** OTLP over HTTP/JSON unless the configuration names another exporter or protocol (then the SDK builds it from the environment). */
function wantsJsonOtlp(config: TracingConfig): boolean {
  const exporters = envList(config.tracesExporter);
  if (exporters.length > 0 && !(exporters.length === 1 && exporters[0] === 'otlp')) return false;
  const protocol = config.tracesProtocol ?? config.protocol ?? '';
  return protocol === '' || protocol === 'http/json';
}

const untraced = (url: string | undefined): boolean => UNTRACED_PATHS.has((url ?? '').split('?')[0] ?? '');

let sdk: NodeSDK | undefined;
let realExit: typeof process.exit | undefined;

/**
 * Starts tracing for this process when its configuration (`loadTracingConfig()`) asks for it; returns
 * whether it did. Call it before kafkajs, mongodb, fastify or undici are first required (they are
 * patched as they load).
 */
export function startTracing(serviceName: string, config: TracingConfig): boolean {
  if (sdk) return true;
  if (!tracingRequested(config)) return false;

  // Loaded only now: with tracing off none of this is required.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { KafkaJsInstrumentation } =
    require('@opentelemetry/instrumentation-kafkajs') as typeof import('@opentelemetry/instrumentation-kafkajs');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  /* eslint-enable @typescript-eslint/no-require-imports */

  sdk = new NodeSDK({
    serviceName: config.serviceName || serviceName,
    ...(wantsJsonOtlp(config) ? { traceExporter: new OTLPTraceExporter() } : {}),
    // Traces only, unless the standard variables ask for more.
    ...(config.metricsExporter ? {} : { metricReaders: [] }),
    ...(config.logsExporter ? {} : { logRecordProcessors: [] }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => untraced(req.url),
        // Client calls outside any trace (readiness pings of the schema registry) make no root spans.
        requireParentforOutgoingSpans: true,
      }),
      // Webhook retries run on the notifier's timer, outside the operation's trace: still one span each.
      new UndiciInstrumentation(),
      new KafkaJsInstrumentation(),
      // Pollers (notifier, reconciler, readiness) would otherwise make a root trace per query.
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => untraced(route.url),
        // One span per request, named by its route; none per lifecycle hook or plugin handler.
        instrumentHooks: false,
        instrumentHandler: false,
      }),
    ],
  });
  sdk.start();
  flushBeforeExit(exportTimeoutMs(config));
  return true;
}

/** Flushes and stops tracing (and gives `process.exit` back). Safe to call when tracing is off. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  if (realExit) {
    process.exit = realExit;
    realExit = undefined;
  }
  await running?.shutdown();
}

function exportTimeoutMs(config: TracingConfig): number {
  const ms = Number(config.tracesTimeout ?? config.timeout ?? 10_000);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 10_000) : 10_000;
}

/**
 * Every way a service process ends goes through `process.exit` (graceful shutdown, its time limit, a
 * failed start): while tracing is on, that first exports the spans still buffered, bounded in time.
 * A second call (or the bound) exits at once.
 */
function flushBeforeExit(limitMs: number): void {
  if (realExit) return;
  const exit = process.exit.bind(process) as typeof process.exit;
  realExit = process.exit;
  let flushing = false;
  process.exit = ((code?: number | string | null) => {
    const running = sdk;
    if (flushing || !running) return exit(code);
    flushing = true;
    if (code !== undefined && code !== null) process.exitCode = code;
    const bound = setTimeout(() => exit(code), limitMs);
    running.shutdown().then(
      () => exit(code),
      () => exit(code),
    );
    // Keeps nothing alive by itself: the shutdown's own I/O does, until it settles.
    bound.unref();
    return undefined as never;
  }) as typeof process.exit;
}
