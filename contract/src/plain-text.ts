// Plain words from a story's Markdown, written once for every place that needs the words without the marks:
// the PDF book, the read-along book and the film's captions, what Read aloud speaks, a shared page's preview
// (server), and the web wherever it shows or sends a message's words outside the rendered view. The words are
// the ones the app shows (web/src/components/markdown.tsx, CommonMark): a picture leaves its description, a
// link its words, headings and quotes their text, **bold**, __bold__, *italic*, _italic_ and `code` their
// words; what CommonMark does not mark (~~ ~~, a lone * or _, an underscore inside a word) stays as written.

// Control codes other than tab, newline and return: never words, and XML 1.0 (the books) forbids them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing exactly those characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Markdown as plain words, its lines and paragraphs kept. */
export function markdownToPlain(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, "\n")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/^#{1,6}[ \t]+/gm, "")
    .replace(/^[ \t]*>[ \t]?/gm, "")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/__([^_]+)__/g, "$1")
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1$2")
    .replace(/(^|[^_\p{L}\p{N}])_([^_\s][^_\n]*)_(?![\p{L}\p{N}])/gu, "$1$2")
    .replace(/`([^`]+)`/g, "$1")
    .replace(CONTROL, "")
    .trim();
}

/**
 * Markdown as one line of plain words for a preview (a shared page's description): white space folded, cut to
 * `max` characters (never inside a surrogate pair) ending in "…" when it was longer.
 */
export function plainPreview(markdown: string, max = 200): string {
  const line = markdownToPlain(markdown).replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`
    : line;
}
