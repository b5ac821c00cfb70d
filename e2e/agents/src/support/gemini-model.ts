import { startMockModel, type MockModel } from './mock-model.ts';

/**
 * Gemini's API as Gemini CLI calls it: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`,
 * answered with one server-sent event holding a `GenerateContentResponse` — a `functionCall` to
 * `run_shell_command` first, text once the request carries the call's `functionResponse`.
 */
export function startGeminiModel(): Promise<MockModel> {
  return startMockModel(
    ({ url, command, answered }) => {
      if (!url.includes(':streamGenerateContent')) return undefined;
      const parts = answered
        ? [{ text: 'done' }]
        : [{ functionCall: { name: 'run_shell_command', args: { command } } }];
      const chunk = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
        modelVersion: 'gemini-2.5-flash',
      };
      return `data: ${JSON.stringify(chunk)}\n\n`;
    },
    (body) => body.includes('"functionResponse"'),
  );
}

/** The tool results (`functionResponse.response`) a request of Gemini CLI carries, newest last. */
export function geminiToolResults(body: string): unknown[] {
  const request = JSON.parse(body) as {
    contents?: Array<{ parts?: Array<{ functionResponse?: { response?: unknown } }> }>;
  };
  return (request.contents ?? []).flatMap((content) =>
    (content.parts ?? []).flatMap((part) =>
      part.functionResponse === undefined ? [] : [part.functionResponse.response],
    ),
  );
}
