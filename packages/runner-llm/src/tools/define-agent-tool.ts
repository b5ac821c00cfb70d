import type Anthropic from '@anthropic-ai/sdk';
import * as v from 'valibot';
import type { AgentTool, ToolOutput, ToolScope } from './agent-tool.ts';

/** One property of a tool's input, as the API declares it to the model. */
export interface ToolProperty {
  readonly type: 'string' | 'boolean';
  readonly description: string;
}

/** A tool's declaration for the API: its input is an object of `properties`, `required` among them. */
export function toolDefinition(name: string, description: string, properties: Readonly<Record<string, ToolProperty>>, required: readonly string[]): Anthropic.Tool {
  return { name, description, input_schema: { type: 'object', properties, required: [...required] } };
}

/** What an agent tool is made of. */
export interface AgentToolSpec<TInput> {
  readonly definition: Anthropic.Tool;
  /** The input the tool runs with; the model's input is checked against it before `run`. */
  readonly input: v.GenericSchema<unknown, TInput>;
  /** The model's answer when its input fails `input`: the shape the tool wants. */
  readonly usage: string;
  run(input: TInput, scope: ToolScope): Promise<ToolOutput>;
}

/**
 * An agent tool that checks the model's input before it runs: a model that calls a tool with the
 * wrong shape is told the right one as an error result, and may call again.
 */
export function defineAgentTool<TInput>(spec: AgentToolSpec<TInput>): AgentTool {
  return {
    definition: spec.definition,
    async run(input, scope) {
      const parsed = v.safeParse(spec.input, input);
      return parsed.success ? spec.run(parsed.output, scope) : { text: spec.usage, isError: true };
    },
  };
}
