/** Tokens summed over every model call of one hook run, as the report's `usage` shows them. */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

/** A fresh tally. */
export function emptyUsage(): TokenUsage {
  return { input_tokens: 0, output_tokens: 0 };
}
