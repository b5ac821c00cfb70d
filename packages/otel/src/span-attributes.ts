import type { EmitOutcome, EmitStart, HookDefinition, HookReport } from '@hookline/core/plugin';
import type { Attributes } from '@opentelemetry/api';

// Hookline's own attributes live under `hookline.`; the HTTP status and token usage use the
// OpenTelemetry semantic conventions' names, so backends that know them show them as such.

/** Attributes of an emit span known when it starts. */
export function emitStartAttributes(start: EmitStart): Attributes {
  return {
    'hookline.preset': start.preset,
    'hookline.event': start.event,
    ...(start.session === undefined ? {} : { 'hookline.session': start.session }),
    ...(start.resumed === true ? { 'hookline.resumed': true } : {}),
  };
}

/** Attributes of an emit span once every hook is over. */
export function emitEndAttributes(outcome: EmitOutcome): Attributes {
  const failed = outcome.hooks.filter((hook) => hook.status === 'failed' || hook.status === 'timed_out').length;
  return {
    'hookline.decision': outcome.decision,
    ...(outcome.reason === undefined ? {} : { 'hookline.reason': outcome.reason }),
    ...(outcome.decided_by === undefined ? {} : { 'hookline.decided_by': outcome.decided_by }),
    ...(outcome.edge_to === undefined ? {} : { 'hookline.edge_to': outcome.edge_to }),
    'hookline.hooks': outcome.hooks.length,
    'hookline.hooks.failed': failed,
    'hookline.warnings': outcome.warnings.length,
  };
}

/** Attributes of a hook span known when it starts. */
export function hookStartAttributes(hook: HookDefinition, event: string, preset: string): Attributes {
  return {
    'hookline.preset': preset,
    'hookline.event': event,
    'hookline.hook.name': hook.name,
    'hookline.hook.type': hook.type,
    'hookline.hook.blocking': hook.blocking,
    'hookline.hook.timeout_ms': hook.timeoutMs,
  };
}

/** Attributes of a hook span from its report: how it ended and what the runner said about it. */
export function hookEndAttributes(report: HookReport): Attributes {
  const attributes: Attributes = { 'hookline.hook.status': report.status };
  if (report.decision !== undefined) attributes['hookline.hook.decision'] = report.decision.decision;
  if (typeof report['sandbox'] === 'string') attributes['hookline.hook.sandbox'] = report['sandbox'];
  if (typeof report['exit_code'] === 'number') attributes['hookline.hook.exit_code'] = report['exit_code'];
  if (typeof report['signal'] === 'string') attributes['hookline.hook.signal'] = report['signal'];
  if (typeof report['http_status'] === 'number') attributes['http.response.status_code'] = report['http_status'];
  if (typeof report['model'] === 'string') attributes['gen_ai.request.model'] = report['model'];
  const usage = report['usage'];
  if (typeof usage === 'object' && usage !== null) {
    const { input_tokens: input, output_tokens: output } = usage as Record<string, unknown>;
    if (typeof input === 'number') attributes['gen_ai.usage.input_tokens'] = input;
    if (typeof output === 'number') attributes['gen_ai.usage.output_tokens'] = output;
  }
  if (report.status === 'failed' || report.status === 'timed_out') attributes['error.type'] = report.status;
  if (report.skipped_because !== undefined) attributes['hookline.hook.skipped_because'] = report.skipped_because;
  // A retried delivery of a durable hook: which attempt this span is, and what comes of it.
  if (typeof report['delivery_attempt'] === 'number')
    attributes['hookline.delivery.attempt'] = report['delivery_attempt'];
  if (typeof report['webhook_id'] === 'string') attributes['hookline.delivery.message_id'] = report['webhook_id'];
  const delivery = report['delivery'];
  if (typeof delivery === 'object' && delivery !== null) {
    const { next, afterMs, counted } = delivery as Record<string, unknown>;
    if (next === 'retry' || next === 'dead')
      attributes['hookline.delivery.next'] = counted === false ? 'deferred' : next;
    if (typeof afterMs === 'number') attributes['hookline.delivery.retry_after_ms'] = afterMs;
  }
  return attributes;
}
