import { startMockModel, type MockModel } from './mock-model.ts';

/**
 * OpenAI's Chat Completions API as GitHub Copilot CLI calls a custom provider (`POST
 * /v1/chat/completions`, streamed): a `bash` tool call first, an assistant text once the request
 * carries the call's `tool` message. Each reply ends with a usage chunk and `data: [DONE]`.
 */
export function startCopilotModel(): Promise<MockModel> {
  return startMockModel(
    ({ url, command, answered }) => {
      if (!url.endsWith('/chat/completions')) return undefined;
      const delta = answered
        ? { role: 'assistant', content: 'done' }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'bash', arguments: JSON.stringify({ command, description: 'scenario' }) },
              },
            ],
          };
      return [
        chunk([{ index: 0, delta, finish_reason: null }]),
        chunk([{ index: 0, delta: {}, finish_reason: answered ? 'stop' : 'tool_calls' }]),
        chunk([], { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }),
        'data: [DONE]\n\n',
      ].join('');
    },
    (body) => body.includes('"role":"tool"'),
  );
}

function chunk(choices: readonly unknown[], more: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', choices, ...more })}\n\n`;
}

/** What the last request of a run carries: the tool messages' contents and the user messages' texts. */
export function copilotFollowUp(body: string): { readonly tools: string[]; readonly user: string[] } {
  const request = JSON.parse(body) as { messages?: Array<{ role?: string; content?: unknown }> };
  const text = (content: unknown): string[] =>
    typeof content === 'string'
      ? [content]
      : Array.isArray(content)
        ? content.flatMap((part: { text?: unknown }) => (typeof part.text === 'string' ? [part.text] : []))
        : [];
  const messages = request.messages ?? [];
  return {
    tools: messages.filter((message) => message.role === 'tool').flatMap((message) => text(message.content)),
    user: messages.filter((message) => message.role === 'user').flatMap((message) => text(message.content)),
  };
}
