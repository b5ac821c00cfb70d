import { isSpanContextValid, type Context, type PropagationAPI, type Span } from '@opentelemetry/api';

/**
 * The W3C Trace Context of `span` as lower-case fields (`traceparent`, `tracestate`), plus whatever
 * the host's registered propagator adds (baggage, another format). `traceparent` is written from
 * the span itself, so hooks get it even when the host registered a tracer but no propagator.
 * `undefined` for a span that is not part of a trace (no SDK registered).
 */
export function traceContextOf(
  span: Span,
  within: Context,
  propagation: PropagationAPI,
): Record<string, string> | undefined {
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return undefined;
  const fields: Record<string, string> = {};
  propagation.inject(within, fields, {
    set(carrier, key, value) {
      carrier[key.toLowerCase()] = value;
    },
  });
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  fields['traceparent'] = `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
  const state = spanContext.traceState?.serialize();
  if (state !== undefined && state !== '') fields['tracestate'] = state;
  return fields;
}
