export { otelObserver, TRACER_NAME, type OtelObserverSettings } from './otel-observer.ts';
