import type { Static } from '@sinclair/typebox';
import { readSettings, setting, settings, type EnvSource } from './env';

/**
 * The standard OpenTelemetry variables the switch itself looks at (telemetry/tracing.ts); the SDK reads
 * the rest of the `OTEL_*` family (sampler, batching, headers) itself when tracing is on.
 */
export const TracingSettings = settings(
  {
    disabled: setting.optionalString('OTEL_SDK_DISABLED', '`true` turns tracing off whatever else is set'),
    endpoint: setting.optionalString('OTEL_EXPORTER_OTLP_ENDPOINT', 'OTLP endpoint: setting it turns tracing on'),
    tracesEndpoint: setting.optionalString(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'OTLP endpoint for traces only: setting it turns tracing on',
    ),
    tracesExporter: setting.optionalString('OTEL_TRACES_EXPORTER', 'exporter(s) the SDK builds; anything but `none` turns tracing on'),
    protocol: setting.optionalString('OTEL_EXPORTER_OTLP_PROTOCOL', 'OTLP protocol; the switch exports HTTP/JSON unless told otherwise'),
    tracesProtocol: setting.optionalString('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTLP protocol for traces only'),
    serviceName: setting.optionalString('OTEL_SERVICE_NAME', 'the service name on spans', { defaultText: "the process's service" }),
    metricsExporter: setting.optionalString('OTEL_METRICS_EXPORTER', 'OTel metrics (metrics stay on Prometheus `/metrics` unless set)'),
    logsExporter: setting.optionalString('OTEL_LOGS_EXPORTER', 'OTel logs (off unless set)'),
    timeout: setting.optionalString(
      'OTEL_EXPORTER_OTLP_TIMEOUT',
      'export bound; the last spans are flushed on exit within it (at most 10 s)',
    ),
    tracesTimeout: setting.optionalString('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'export bound for traces only'),
  },
  'Tracing (OpenTelemetry)',
);
export type TracingConfig = Static<typeof TracingSettings>;

/**
 * Read on a service's first line, before anything else loads (the instrumented modules are patched as
 * they load), so apart from the rest of its configuration. Imports nothing heavy.
 */
export function loadTracingConfig(source?: EnvSource): TracingConfig {
  return readSettings(TracingSettings, source);
}
