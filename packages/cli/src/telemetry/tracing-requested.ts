/**
 * Whether the environment asks for traces: the standard OTLP endpoint variables, unless the
 * OpenTelemetry switches turn the SDK or the trace exporter off. Without them the CLI loads nothing
 * of OpenTelemetry.
 */
export function tracingRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  const endpoint =
    (env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ?? '') !== '' || (env['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? '') !== '';
  return (
    endpoint &&
    env['OTEL_SDK_DISABLED']?.toLowerCase() !== 'true' &&
    env['OTEL_TRACES_EXPORTER']?.toLowerCase() !== 'none'
  );
}
