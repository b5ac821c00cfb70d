import type Anthropic from '@anthropic-ai/sdk';

/** The request body the runner sends (the SDK's non-streaming `messages.create` parameters). */
export type MessageRequest = Anthropic.MessageCreateParamsNonStreaming;

/** Per-request options the runner sets: the hook's signal, the time left, and no SDK-side retries. */
export type MessageRequestOptions = Pick<Anthropic.RequestOptions, 'signal' | 'timeout' | 'maxRetries'>;

/**
 * The part of an Anthropic client the runner uses. An `Anthropic` instance from `@anthropic-ai/sdk`
 * fits, configured however the host likes (base URL, proxy `fetch`, headers, credentials).
 */
export interface MessagesClient {
  readonly messages: {
    create(body: MessageRequest, options?: MessageRequestOptions): PromiseLike<unknown>;
  };
  /** Read only to keep the credentials out of error texts. */
  readonly apiKey?: unknown;
  readonly authToken?: unknown;
}
