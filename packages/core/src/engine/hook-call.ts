import type { EventContext } from '../context/event-context.ts';
import type { DeliveryCall, RunCall } from '../plugins/runner.ts';
import type { SandboxSession } from '../plugins/sandbox-provider.ts';
import type { Preset } from '../presets/preset.ts';

/** The context of one emit, serialised on first use and shared by every hook of the emit. */
export class EmitPayload {
  readonly context: EventContext;
  readonly #preset: Preset | undefined;
  #json: string | undefined;

  /** `preset` may serialise the context its own way (`Preset.contextJson`). */
  constructor(context: EventContext, preset?: Preset) {
    this.context = context;
    this.#preset = preset;
  }

  get json(): string {
    return (this.#json ??= this.#preset?.contextJson?.(this.context) ?? JSON.stringify(this.context));
  }
}

/**
 * The {@link RunCall} of one hook run. Its abort signal and the context JSON are made when a runner
 * first reads them: an in-memory hook that needs neither should not pay for an `AbortController`, and
 * a signal read after the hook was aborted comes back already aborted.
 */
export class HookCall implements RunCall {
  readonly context: EventContext;
  readonly timeoutMs: number;
  readonly preset: Preset;
  readonly sandbox: SandboxSession | undefined;
  readonly traceContext: Readonly<Record<string, string>> | undefined;
  readonly onProcessStarted: ((pid: number) => Promise<boolean>) | undefined;
  readonly delivery: DeliveryCall | undefined;
  readonly #payload: EmitPayload;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(
    payload: EmitPayload,
    timeoutMs: number,
    preset: Preset,
    sandbox: SandboxSession | undefined,
    traceContext: Readonly<Record<string, string>> | undefined,
    onProcessStarted?: (pid: number) => Promise<boolean>,
    delivery?: DeliveryCall,
  ) {
    this.#payload = payload;
    this.delivery = delivery;
    this.onProcessStarted = onProcessStarted;
    this.context = payload.context;
    this.timeoutMs = timeoutMs;
    this.preset = preset;
    this.sandbox = sandbox;
    this.traceContext = traceContext;
  }

  get contextJson(): string {
    return this.#payload.json;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the signal now, or marks it to be born aborted. Only the first reason counts. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
