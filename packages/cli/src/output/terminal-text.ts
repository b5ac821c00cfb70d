/**
 * Control characters: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). Printed raw they are
 * terminal commands — `ESC ]0;…BEL` retitles the window, `ESC [2K` and `CR` erase and rewrite the
 * line, and C1's CSI (U+009B) starts a command by itself on some terminals.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text that came from outside the CLI — a hook's reason or error, a server's answer, a context
 * field, a config value, an engine message quoting any of them — made safe to print in human output:
 * every control character is shown as an escape (`\x1b`, `\r`, `\x9b`) instead of acting on the
 * terminal, so a hook cannot recolor, erase or rewrite the summary. `block` keeps newlines, for
 * multi-line text printed as a block of its own. JSON output needs none of this: JSON escapes C0
 * itself, and a machine reads it.
 */
export function terminalText(text: string, layout: 'line' | 'block' = 'line'): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(
    layout === 'block' ? CONTROLS_BUT_NEWLINE : CONTROLS,
    (character) => NAMED[character] ?? `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
