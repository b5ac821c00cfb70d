import type { MessagesClient } from './messages-client.ts';

/** The runner's client: the host's, or one made from the environment on first use. */
export interface LazyClient {
  /** The client, created on the first call when the host passed none. */
  get(): Promise<MessagesClient>;
  /** True when the runner made the client itself (so missing credentials are the environment's fault). */
  readonly ownsClient: boolean;
  /** Forgets a client the runner made, so the next hook reads the environment again (after missing credentials). */
  reset(): void;
}

/**
 * Holds the given client, or creates an `Anthropic` client on first use. The SDK is imported only
 * then: a host that loads the runner but runs no LLM hook never loads it, and loading stays off the
 * path of configs without LLM hooks. The SDK reads `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN` and
 * `ANTHROPIC_BASE_URL` (and its other standard variables) when the client is made.
 */
export function lazyClient(given: MessagesClient | undefined): LazyClient {
  if (given !== undefined) return { get: () => Promise.resolve(given), ownsClient: false, reset: () => undefined };
  let made: Promise<MessagesClient> | undefined;
  return {
    ownsClient: true,
    get() {
      if (made === undefined) {
        const creating = import('@anthropic-ai/sdk').then(
          ({ default: Anthropic }) => new Anthropic({ maxRetries: 0 }) as MessagesClient,
        );
        made = creating;
        // A failed import must not stick: the next hook tries again.
        creating.catch(() => {
          if (made === creating) made = undefined;
        });
      }
      return made;
    },
    reset() {
      made = undefined;
    },
  };
}
