import type { EmitObservation, EngineObserver, HookObservation } from '@hookline/core/plugin';
import {
  context as contexts,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TracerProvider,
} from '@opentelemetry/api';
import { messageOf } from '@hookline/core/plugin';
import { emitEndAttributes, emitStartAttributes, hookEndAttributes, hookStartAttributes } from './span-attributes.ts';
import { traceContextOf } from './trace-context.ts';

/** Settings of {@link otelObserver}. */
export interface OtelObserverSettings {
  /**
   * Where spans go. Default: the global provider of `@opentelemetry/api`, which is a no-op until the
   * host registers an SDK (and is looked up at each span, so an SDK registered later is used).
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * The context emit spans belong to when no span is active at `emit` — e.g. the trace of the
   * process that started this one, read from its `TRACEPARENT` (the `hookline` CLI does that).
   */
  readonly parent?: Context;
}

/** The instrumentation scope of Hookline's spans. */
export const TRACER_NAME = '@hookline/otel';

/**
 * An `EngineObserver` for `createHookEngine({ observer })` that traces through
 * `@opentelemetry/api`: a span `hookline.emit <event>` per emit — a child of the span active when
 * `emit` was called — and a child span `hookline.hook <name>` per hook run, with the preset, event,
 * hook name and type, sandbox, decision, status, exit code or HTTP status and an LLM hook's token
 * usage as attributes. A hook that fails or times out has status ERROR and an exception event.
 * Each hook gets its span's W3C trace context (`traceparent`), which the command runner passes on
 * as `TRACEPARENT` and the HTTP runner as a header.
 */
export function otelObserver(settings: OtelObserverSettings = {}): EngineObserver {
  const tracer = (settings.tracerProvider ?? trace).getTracer(TRACER_NAME);
  return {
    emitStarted(start) {
      const active = contexts.active();
      const parent = settings.parent !== undefined && trace.getSpan(active) === undefined ? settings.parent : active;
      const span = tracer.startSpan(
        `hookline.emit ${start.event}`,
        { kind: SpanKind.INTERNAL, attributes: emitStartAttributes(start) },
        parent,
      );
      return emitObservation(span, trace.setSpan(parent, span), start.preset);
    },
  };

  function emitObservation(span: Span, within: Context, preset: string): EmitObservation {
    return {
      hookStarted(hook, context) {
        const hookSpan = tracer.startSpan(
          `hookline.hook ${hook.name}`,
          { kind: SpanKind.INTERNAL, attributes: hookStartAttributes(hook, context.event, preset) },
          within,
        );
        return hookObservation(hookSpan, trace.setSpan(within, hookSpan));
      },
      ended(outcome) {
        span.setAttributes(emitEndAttributes(outcome));
        span.end();
      },
      failed(error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
        span.end();
      },
    };
  }
}

function hookObservation(span: Span, within: Context): HookObservation {
  const traceContext = traceContextOf(span, within, propagation);
  return {
    ...(traceContext === undefined ? {} : { traceContext }),
    ended(report) {
      span.setAttributes(hookEndAttributes(report));
      if (report.status === 'failed' || report.status === 'timed_out') {
        const message = report.error ?? (report.status === 'failed' ? 'the hook failed' : 'the hook timed out');
        span.recordException({ name: report.status === 'failed' ? 'HookFailed' : 'HookTimedOut', message });
        span.setStatus({ code: SpanStatusCode.ERROR, message });
      }
      span.end();
    },
  };
}
