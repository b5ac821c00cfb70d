import type Anthropic from '@anthropic-ai/sdk';
import * as v from 'valibot';
import type { AgentTool, ToolOutput, ToolScope } from './agent-tool.ts';

/** A tool's input: an object schema whose keys are strings or booleans, each with a description. */
export interface ToolInput<TInput> extends v.GenericSchema<unknown, TInput> {
  readonly entries: Readonly<Record<string, v.GenericSchema>>;
}

/**
 * A tool's declaration for the API, read off its input schema — each key's type, its description,
 * and whether it is required (not optional) — so the model is told what the tool checks.
 */
export function toolDefinition(name: string, description: string, input: ToolInput<unknown>): Anthropic.Tool {
  const properties: Record<string, { type: string; description?: string }> = {};
  const required: string[] = [];
  for (const [key, schema] of Object.entries(input.entries)) {
    const optional = schema.type === 'optional';
    const inner = optional ? (schema as v.OptionalSchema<v.GenericSchema, undefined>).wrapped : schema;
    const text = v.getDescription(inner);
    properties[key] = { type: inner.type, ...(text === undefined ? {} : { description: text }) };
    if (!optional) required.push(key);
  }
  return { name, description, input_schema: { type: 'object', properties, required } };
}

/** What an agent tool is made of. */
export interface AgentToolSpec<TInput> {
  readonly name: string;
  /** What the model is told the tool does. */
  readonly description: string;
  /** The input the tool runs with: declared to the model, and checked before `run`. */
  readonly input: ToolInput<TInput>;
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
    definition: toolDefinition(spec.name, spec.description, spec.input),
    async run(input, scope) {
      const parsed = v.safeParse(spec.input, input);
      return parsed.success ? spec.run(parsed.output, scope) : { text: spec.usage, isError: true };
    },
  };
}
