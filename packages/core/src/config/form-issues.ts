import * as v from 'valibot';
import type { GenericSchema } from 'valibot';
import type { ConfigIssue } from './config-issue.ts';
import { wordingOf, type FormProblem } from './form-wording.ts';
import { nearestWord } from './nearest-word.ts';

type Path = ReadonlyArray<string | number>;

/** Where the form's issues go: the file, and the line of a path below `hooks`. */
export interface FormPlace {
  readonly file: string;
  line(path: Path): number;
}

/**
 * Reads `value` (a file's `hooks`) with a dialect's form schema and turns each problem into an issue
 * at the line of what it is about, worded by the node it concerns (`worded`) or, without wording,
 * from the schema's own message. Where the form is a union, the option of the value's kind (array or
 * table) is the one the value meant.
 */
export function formIssues(form: GenericSchema, value: unknown, place: FormPlace, prefix: Path = []): ConfigIssue[] {
  const parsed = v.safeParse(form, value);
  if (parsed.success) return [];
  return parsed.issues.flatMap((problem): ConfigIssue[] => {
    const path = problem.path?.map((item) => item.key as string | number) ?? [];
    const at = [...prefix, ...path];
    const node = nodeAt(form, path, value);
    if (problem.type === 'union' && node !== undefined) {
      const option = optionFor(node, valueAt(value, path));
      if (option !== undefined) return formIssues(option, valueAt(value, path), place, at);
    }
    if (problem.type === 'strict_object' && problem.expected === 'never' && path.length > 0) {
      const key = String(path.at(-1));
      const parent = nodeAt(form, path.slice(0, -1), value);
      const known = parent === undefined ? [] : Object.keys(entriesOf(parent) ?? {});
      const where = whereOf(at.slice(0, -1));
      const worded =
        parent === undefined
          ? undefined
          : (wordingOf(parent) ?? wordingOf(unwrap(parent)))?.unknownKey?.(key, where, known);
      return [issue(place, at, worded ?? unknownKey(key, where, known))];
    }
    const worded =
      node === undefined
        ? undefined
        : (wordingOf(node) ?? wordingOf(unwrap(node)))?.wrongType?.(whereOf(at), at.at(-1));
    return [issue(place, at, worded ?? { message: `\`${whereOf(at)}\` ${problem.message}` })];
  });
}

function issue(place: FormPlace, path: Path, problem: FormProblem): ConfigIssue {
  return {
    file: place.file,
    line: place.line(path),
    message: problem.message,
    ...(problem.fix === undefined ? {} : { fix: problem.fix }),
  };
}

function unknownKey(key: string, where: string, known: readonly string[]): FormProblem {
  const near = nearestWord(key, known);
  return {
    message: `unknown key \`${key}\` in \`${where}\``,
    fix: near === undefined ? `remove it (keys: ${known.join(', ')})` : `did you mean "${near}"?`,
  };
}

/** A path below `hooks` as the user writes it: `hooks.PreToolUse[0].matcher`. */
function whereOf(path: Path): string {
  return `hooks${path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('')}`;
}

// The schema node at `path` below `form`, through optional wrappers and the union option of the
// value's kind; undefined where the path leaves the form.
function nodeAt(form: GenericSchema, path: Path, value: unknown): GenericSchema | undefined {
  let node: GenericSchema | undefined = form;
  let current = value;
  for (const key of path) {
    node = node === undefined ? undefined : unwrap(node);
    if (node?.type === 'union') node = optionFor(node, current);
    if (node === undefined) return undefined;
    const entries = entriesOf(node);
    node =
      entries !== undefined
        ? entries[String(key)]
        : node.type === 'array'
          ? (node as v.ArraySchema<GenericSchema, undefined>).item
          : undefined;
    current = valueAt(current, [key]);
  }
  return node;
}

function unwrap(node: GenericSchema): GenericSchema {
  return node.type === 'optional' ? (node as v.OptionalSchema<GenericSchema, undefined>).wrapped : node;
}

function entriesOf(node: GenericSchema): Readonly<Record<string, GenericSchema>> | undefined {
  const entries = (unwrap(node) as { entries?: Record<string, GenericSchema> }).entries;
  return typeof entries === 'object' ? entries : undefined;
}

// The option of a union that takes values of this kind: an array, or a table.
function optionFor(union: GenericSchema, value: unknown): GenericSchema | undefined {
  const options = (unwrap(union) as v.UnionSchema<GenericSchema[], undefined>).options;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'object' && value !== null ? 'object' : undefined;
  return options.find((option) =>
    kind === 'array' ? unwrap(option).type === 'array' : kind === 'object' && entriesOf(option) !== undefined,
  );
}

function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path)
    current =
      typeof current === 'object' && current !== null ? (current as Record<string | number, unknown>)[key] : undefined;
  return current;
}
