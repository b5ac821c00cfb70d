/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The info string's words: `["toml"]`, `["json", "decision"]`, `["toml", "invalid"]`. */
  readonly info: readonly string[];
  readonly text: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The text of a `<!-- docs-test: … -->` comment on the line just above the fence, if any. */
  readonly directive?: string;
}

/** A link of a Markdown file: inline `[text](target)`, an image, or a reference definition. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const DIRECTIVE = /^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$/;

/** Every fenced code block, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (open === null) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) body.push(lines[end++]!);
    const directive = index > 0 ? DIRECTIVE.exec(lines[index - 1]!)?.[1] : undefined;
    blocks.push({
      info: open[2]!
        .trim()
        .split(/\s+/)
        .filter((word) => word !== ''),
      text: `${body.join('\n')}\n`,
      line: index + 1,
      ...(directive === undefined ? {} : { directive }),
    });
    index = end;
  }
  return blocks;
}

/** The Markdown with fenced blocks and inline code blanked out (line numbers kept), for link and heading scans. */
function prose(markdown: string): string[] {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const open = FENCE.exec(line);
    if (fence === undefined && open !== null) {
      fence = open[1];
      return '';
    }
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence)) fence = undefined;
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, (code) => ' '.repeat(code.length));
  });
}

/** Every link target outside code: inline links and images, autolinks excluded, reference definitions included. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  prose(markdown).forEach((line, index) => {
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line: index + 1 });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/.exec(line);
    if (definition !== null) links.push({ target: definition[1]!, line: index + 1 });
  });
  return links;
}

/**
 * The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as `-`, and
 * `-1`, `-2` … for repeats.
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = markdown.split('\n');
  let fence: string | undefined;
  for (const line of lines) {
    const open = FENCE.exec(line);
    if (fence === undefined && open !== null) {
      fence = open[1];
      continue;
    }
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence)) fence = undefined;
      continue;
    }
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const text = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
