// The PDF's fonts, embedded (pdfkit keeps only the glyphs a book uses): Noto Sans for Latin, Greek and
// Cyrillic (every Windows-1252 letter included), and Noto Sans SC (Simplified Chinese) as the fallback for
// Chinese and Japanese (its ~21,000 CJK ideographs, kana, and traditional forms). Both SIL OFL 1.1, from the
// npm registry (@embedpdf/fonts-latin, @embedpdf/fonts-sc); see docs/decisions/0087-pdf-fonts.md. Files are read once,
// when first needed, and kept: the CJK one only if a book has CJK text.
// fontkit ships no types: the reference brings ours into every program that compiles this file (bench too).
/// <reference path="./fontkit.d.ts" />
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { create, type Font } from "fontkit";

const require = createRequire(import.meta.url);
/** The fonts folder beside a font package's entry point (dist/index.cjs). */
const fontsBeside = (entry: string) => join(dirname(entry), "..", "fonts");
const LATIN = fontsBeside(require.resolve("@embedpdf/fonts-latin"));
const CJK = fontsBeside(require.resolve("@embedpdf/fonts-sc"));

const FILES = {
  regular: join(LATIN, "NotoSans-Regular.ttf"),
  bold: join(LATIN, "NotoSans-Bold.ttf"),
  italic: join(LATIN, "NotoSans-Italic.ttf"),
  "cjk-regular": join(CJK, "NotoSansHans-Regular.otf"),
  "cjk-bold": join(CJK, "NotoSansHans-Bold.otf"),
} as const;

export type FontName = keyof typeof FILES;
export type Style = "regular" | "bold" | "italic";
/** The CJK face standing in for each style (Chinese and Japanese have no italic). */
const CJK_OF: Record<Style, FontName> = { regular: "cjk-regular", bold: "cjk-bold", italic: "cjk-regular" };

const bytes = new Map<FontName, Buffer>();
const faces = new Map<FontName, Font>();

export function fontBytes(name: FontName): Buffer {
  let data = bytes.get(name);
  if (!data) {
    data = readFileSync(FILES[name]);
    bytes.set(name, data);
  }
  return data;
}

function face(name: FontName): Font {
  let font = faces.get(name);
  if (!font) {
    font = create(fontBytes(name));
    faces.set(name, font);
  }
  return font;
}

export type Run = { font: FontName; text: string };

// Invisible format characters (zero-width joiners, variation selectors, soft hyphens): no font draws them.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Shown for a character neither font has (e.g. emoji), so the gap is visible and the text still reads. */
const REPLACEMENT = "\uFFFD";
const LETTER = /[\p{L}\p{N}]/u;

/**
 * Cuts text into runs of one font each: the style's Latin face where it has the character, else the CJK
 * face, else the replacement character. Spaces and punctuation both fonts have stay in the run they are in,
 * so a line of Chinese is one run; letters and digits the Latin face has are always set in it.
 */
export function fontRuns(text: string, style: Style): Run[] {
  const latin = face(style);
  const runs: Run[] = [];
  let current: Run | null = null;
  let currentFace: Font | null = null;
  for (const char of text.normalize("NFC").replace(IGNORABLE, "")) {
    const code = char.codePointAt(0) ?? 0;
    let name: FontName;
    let shown = char;
    const inLatin = latin.hasGlyphForCodePoint(code) || char === "\n" || char === "\t" || char === "\r";
    if (inLatin && (current === null || current.font === style || LETTER.test(char))) name = style;
    else if (current && currentFace?.hasGlyphForCodePoint(code)) name = current.font;
    else if (inLatin) name = style;
    else if (face(CJK_OF[style]).hasGlyphForCodePoint(code)) name = CJK_OF[style];
    else {
      name = style;
      shown = REPLACEMENT;
    }
    if (current && current.font === name) current.text += shown;
    else {
      current = { font: name, text: shown };
      currentFace = face(name);
      runs.push(current);
    }
  }
  return runs;
}
