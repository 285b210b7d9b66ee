// Story text (Markdown) for books. The same rule as the app: raw HTML is never rendered, it shows as the
// literal text it is. A small subset is laid out (paragraphs, headings, quotes, lists, bold, italic, code);
// links keep their words but not their address, since a book is read away from the web.

// Characters XML 1.0 forbids (control codes other than tab, newline, return): one would break the book.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing exactly those characters is the point
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlEscape(text: string): string {
  return text
    .replace(XML_INVALID, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Inline Markdown on already escaped text. */
function inline(escaped: string): string {
  return escaped
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/__([^_]+)__/g, "<strong>$1</strong>")
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
    .replace(/(^|[^_\w])_([^_\s][^_]*)_(?!\w)/g, "$1<em>$2</em>");
}

/** Markdown to well-formed XHTML (block elements only, every tag closed). */
export function markdownToXhtml(markdown: string): string {
  const blocks = markdown.replace(/\r\n?/g, "\n").split(/\n\s*\n/);
  const html: string[] = [];
  for (const raw of blocks) {
    const block = raw.trim();
    if (!block) continue;
    const lines = block.split("\n");
    const heading = /^(#{1,6})\s+(.*)$/.exec(block);
    if (heading && lines.length === 1) {
      const level = Math.min(6, (heading[1] ?? "#").length + 2);
      html.push(`<h${level}>${inline(xmlEscape(heading[2] ?? ""))}</h${level}>`);
    } else if (lines.every((line) => /^\s*>/.test(line))) {
      const inner = lines.map((line) => line.replace(/^\s*>\s?/, "")).join("\n");
      html.push(`<blockquote>${markdownToXhtml(inner)}</blockquote>`);
    } else if (lines.every((line) => /^\s*[-*+]\s+/.test(line))) {
      const items = lines.map((line) => `<li>${inline(xmlEscape(line.replace(/^\s*[-*+]\s+/, "")))}</li>`);
      html.push(`<ul>${items.join("")}</ul>`);
    } else if (lines.every((line) => /^\s*\d+[.)]\s+/.test(line))) {
      const items = lines.map((line) => `<li>${inline(xmlEscape(line.replace(/^\s*\d+[.)]\s+/, "")))}</li>`);
      html.push(`<ol>${items.join("")}</ol>`);
    } else if (/^([-*_])(\s*\1){2,}$/.test(block)) {
      html.push("<hr/>");
    } else {
      html.push(`<p>${lines.map((line) => inline(xmlEscape(line.trim()))).join("<br/>")}</p>`);
    }
  }
  return html.join("\n");
}

/** Markdown as plain words (for PDF, which lays out text itself): the contract's one rule (decision 0135). */
export { markdownToPlain } from "@storyverse/contract/plain-text";

/**
 * The language of a book's words for screen readers, counted as they are read: Japanese or Chinese when CJK
 * characters are at least 30% of its letters (Japanese if any kana), else English, the app's language.
 */
export class LanguageCount {
  private letters = 0;
  private kana = 0;
  private cjk = 0;

  add(text: string) {
    const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
    this.letters += count(/\p{L}/gu);
    const kana = count(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu);
    this.kana += kana;
    this.cjk += count(/\p{Script=Han}/gu) + kana;
  }

  language(): string {
    if (this.letters > 0 && this.cjk / this.letters >= 0.3) return this.kana > 0 ? "ja" : "zh";
    return "en";
  }
}
