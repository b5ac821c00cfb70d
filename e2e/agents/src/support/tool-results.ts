import type { ModelRequest } from './mock-anthropic.ts';

/** The text of every tool_result the model was sent, in order. */
export function toolResults(requests: readonly ModelRequest[]): string[] {
  return requests.flatMap((request) =>
    (request.body.messages ?? []).flatMap((message) =>
      Array.isArray(message.content)
        ? message.content.flatMap((block: { type?: string; content?: unknown }) =>
            block.type === 'tool_result' ? [textOf(block.content)] : [],
          )
        : [],
    ),
  );
}

/** Everything the model was sent in its last request, as one text. */
export function lastRequestText(requests: readonly ModelRequest[]): string {
  return JSON.stringify(requests.at(-1)?.body.messages ?? []);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}
