// The little of fontkit (pdfkit's own font engine, which ships no types) that the PDF builder uses: which
// characters a font can show.
declare module "fontkit" {
  interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
