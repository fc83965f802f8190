import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { context, propagation, trace } from '@opentelemetry/api';
import { startTracing, tracingRequested } from './tracing';
import { loadTracingConfig } from '../config/tracing';
import { createLogger } from './logger';

/** Tracing is off without the OTEL_* variables: nothing loaded, nothing patched, nothing exported. (On: tracing-enabled.test.ts.) */
const OTEL_VARS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_TRACES_EXPORTER', 'OTEL_SDK_DISABLED'];
const loaded = (fragment: string) => Object.keys(createRequire(__filename).cache).some((file) => file.includes(fragment));

describe('tracing off by default', () => {
  beforeEach(() => {
    for (const name of OTEL_VARS) vi.stubEnv(name, undefined);
  });
  afterEach(() => vi.unstubAllEnvs());

  it('is asked for only by an OTLP endpoint or a trace exporter, and OTEL_SDK_DISABLED wins', () => {
    expect(tracingRequested(loadTracingConfig({}))).toBe(false);
    expect(tracingRequested(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }))).toBe(false);
    expect(tracingRequested(loadTracingConfig({ OTEL_SERVICE_NAME: 'gateway', OTEL_BSP_SCHEDULE_DELAY: '100' }))).toBe(false);
    expect(tracingRequested(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe(true);
    expect(tracingRequested(loadTracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }))).toBe(true);
    expect(tracingRequested(loadTracingConfig({ OTEL_TRACES_EXPORTER: 'otlp' }))).toBe(true);
    expect(tracingRequested(loadTracingConfig({ OTEL_TRACES_EXPORTER: 'console' }))).toBe(true);
    expect(
      tracingRequested(loadTracingConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })),
    ).toBe(false);
    expect(tracingRequested(loadTracingConfig({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe(
      false,
    );
    expect(tracingRequested(loadTracingConfig({ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }))).toBe(
      true,
    );
  });

  it('without the variables: no SDK or exporter loaded, kafkajs not patched, spans and propagation are no-ops, logs carry no ids', () => {
    const exit = process.exit;
    expect(startTracing('unit', loadTracingConfig())).toBe(false);
    expect(process.exit).toBe(exit);
    expect(loaded('@opentelemetry/sdk-node')).toBe(false);
    expect(loaded('@opentelemetry/exporter-trace-otlp-http')).toBe(false);
    expect(loaded('require-in-the-middle')).toBe(false);

    const { Kafka } = createRequire(__filename)('kafkajs') as typeof import('kafkajs');
    expect('__wrapped' in Kafka.prototype.producer).toBe(false);
    expect('__wrapped' in Kafka.prototype.consumer).toBe(false);

    let text = '';
    const log = createLogger(
      'unit',
      'info',
      new Writable({
        write: (chunk: Buffer, _e, done) => {
          text += chunk.toString();
          done();
        },
      }),
    );
    const carrier: Record<string, string> = {};
    trace.getTracer('unit').startActiveSpan('work', (span) => {
      expect(span.isRecording()).toBe(false);
      propagation.inject(context.active(), carrier);
      log.info('inside');
      span.end();
    });
    expect(carrier).toEqual({});
    expect(JSON.parse(text)).not.toHaveProperty('trace_id');
  });
});
