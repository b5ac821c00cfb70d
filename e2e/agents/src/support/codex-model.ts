import { startMockModel, type MockModel } from './mock-model.ts';

/**
 * OpenAI's Responses API as Codex calls it (`POST /v1/responses`, streamed): a `function_call` to
 * `exec_command` first, an assistant message once the request carries the call's
 * `function_call_output`. Each reply is the events Codex needs: `response.created`,
 * `response.output_item.done`, `response.completed` with usage.
 */
export function startCodexModel(): Promise<MockModel> {
  return startMockModel(
    ({ url, command, answered }) => {
      if (!url.endsWith('/responses')) return undefined;
      const item = answered
        ? { type: 'message', role: 'assistant', id: 'msg_1', content: [{ type: 'output_text', text: 'done' }] }
        : {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_1',
            name: 'exec_command',
            arguments: JSON.stringify({ cmd: command }),
          };
      const usage = {
        input_tokens: 1,
        output_tokens: 1,
        total_tokens: 2,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      };
      return [
        event('response.created', { response: { id: 'resp_1' } }),
        event('response.output_item.done', { item, output_index: 0 }),
        event('response.completed', { response: { id: 'resp_1', usage } }),
      ].join('');
    },
    (body) => body.includes('"function_call_output"'),
  );
}

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** What a request of Codex carries after the call: the tool's outputs and the developer messages. */
export function codexFollowUp(body: string): { readonly outputs: string[]; readonly developer: string[] } {
  const request = JSON.parse(body) as { input?: Array<Record<string, unknown>> };
  const items = request.input ?? [];
  return {
    outputs: items.flatMap((item) =>
      item['type'] === 'function_call_output' && typeof item['output'] === 'string' ? [item['output']] : [],
    ),
    developer: items.flatMap((item) =>
      item['type'] === 'message' && item['role'] === 'developer' && Array.isArray(item['content'])
        ? (item['content'] as Array<{ text?: string }>).flatMap((part) =>
            typeof part.text === 'string' ? [part.text] : [],
          )
        : [],
    ),
  };
}
