/**
 * Replaces `{field}` with the context's value of that top-level field (`{node_id}`, `{run_id}`);
 * an absent field becomes an empty string, `{{` and `}}` stay literal braces.
 */
export function fillTemplate(template: string, context: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z0-9_]+)\}/g, (match, field: string | undefined) => {
    if (field === undefined) return match[0]!;
    const value = context[field];
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}
