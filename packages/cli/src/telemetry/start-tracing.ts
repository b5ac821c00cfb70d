import { otelObserver } from '@hookline/otel';
import type { EngineObserver } from '@hookline/core';
import { ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { messageOf } from '@hookline/core';
import type { CliIo } from '../cli-io.ts';
import { cliVersion } from '../version.ts';

/** The CLI's tracing: the observer for its engine, and the flush to await before exiting. */
export interface CliTracing {
  readonly observer: EngineObserver;
  /** Exports what is left and stops; never rejects. */
  shutdown(): Promise<void>;
}

const PROTOBUF = 'http/protobuf';

/**
 * Sets up OTLP/HTTP export of the engine's spans (protobuf, the protocol OpenTelemetry names as the
 * default). The exporter reads the standard variables itself: `OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT`,
 * `…_HEADERS`, `…_TIMEOUT`, `…_COMPRESSION`; `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` name
 * the service (default `hookline`). A `TRACEPARENT` in the CLI's own environment — a traced CI job or
 * script that started it — makes the emits children of that trace. Export failures are warnings.
 */
export function startTracing(io: CliIo): CliTracing {
  const protocol = io.env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? io.env['OTEL_EXPORTER_OTLP_PROTOCOL'];
  if (protocol !== undefined && protocol !== '' && protocol !== PROTOBUF) {
    io.stderr.write(
      `hookline: warning: traces are exported over OTLP ${PROTOBUF} only; ignoring OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}\n`,
    );
  }
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'hookline', 'service.version': cliVersion() }))
    .merge(detectResources({ detectors: [envDetector] }));
  const exporter = warnOnFailure(new OTLPTraceExporter(), io);
  const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter })] });
  const parent = parentContext(io.env['TRACEPARENT']);
  return {
    observer: otelObserver({ tracerProvider: provider, ...(parent === undefined ? {} : { parent }) }),
    shutdown: () =>
      provider
        .shutdown()
        .catch(
          (error: unknown) => void io.stderr.write(`hookline: warning: could not export traces: ${messageOf(error)}\n`),
        ),
  };
}

// Once per failed batch, so an unreachable collector is visible but never fails the command.
function warnOnFailure(exporter: SpanExporter, io: CliIo): SpanExporter {
  return {
    export(spans: ReadableSpan[], done) {
      exporter.export(spans, (result) => {
        // 0 is ExportResultCode.SUCCESS, from @opentelemetry/core, which the CLI does not depend on.
        // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison
        if (result.error !== undefined || result.code !== 0) {
          io.stderr.write(
            `hookline: warning: could not export ${spans.length} trace span${spans.length === 1 ? '' : 's'}: ${messageOf(result.error ?? 'export failed')}\n`,
          );
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush === undefined ? {} : { forceFlush: () => exporter.forceFlush!() }),
  };
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

// W3C Trace Context, version 00; anything else is ignored, as the spec says a receiver should.
function parentContext(traceparent: string | undefined): Context | undefined {
  const match = TRACEPARENT.exec(traceparent?.trim().toLowerCase() ?? '');
  if (match === null || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  const traceFlags = Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1]!, spanId: match[2]!, traceFlags, isRemote: true });
}
