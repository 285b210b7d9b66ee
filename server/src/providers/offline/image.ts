// The offline image provider: paints a 2048x1536 PNG scene from the prompt with sharp, no network. The
// prompt seeds everything (same prompt, same bytes). Reference images steer the picture without appearing
// in it: their dominant colours recolour the palette and their light decides which side the scene's light
// is on (`referenceStyle`), so a selected character's red cloak makes a redder scene, not a pasted photo.
import sharp from "sharp";
import type { ImageProvider, ImageRequest, MediaFile } from "../types";
import { type ReferenceStyle, referenceStyle } from "./references";
import { sceneSvg } from "./scene-svg";
import { detectTheme, paletteFor, recolourPalette } from "./scene-theme";
import { createRng, hashString } from "./seeded";

/** How strongly references pull the palette toward their dominant colours. */
const REFERENCE_PULL = 0.6;
/** Golden-ratio step: variant seeds of one prompt land far apart. */
const VARIANT_STEP = 0x9e3779b9;

async function paint(
  prompt: string,
  variant: number,
  style: ReferenceStyle | null,
  scale: number,
): Promise<Buffer> {
  const seed = hashString(prompt.trim().toLowerCase());
  // The theme comes from the prompt alone, so every variant shows the same world; the composition varies.
  const theme = detectTheme(prompt, createRng(seed));
  const rng = createRng((seed + variant * VARIANT_STEP) >>> 0);
  let palette = paletteFor(theme, rng);
  if (style) palette = recolourPalette(palette, style.dominant, REFERENCE_PULL);
  const svg = sceneSvg(theme, palette, rng, style?.focusX);
  // The SVG is 2048x1536 at 72 dpi; a lower density rasterises the same picture smaller (and faster).
  return sharp(Buffer.from(svg), { density: 72 * scale })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

/** `scale` (0.05..1, default 1) shrinks the pictures: load and scale tests run many on a small machine. */
export function createOfflineImageProvider(options: { scale?: number | undefined } = {}): ImageProvider {
  const scale = options.scale ?? 1;
  return {
    name: "offline",
    async generate(request: ImageRequest): Promise<MediaFile[]> {
      request.signal?.throwIfAborted();
      // The contract allows 1..4; anything else is clamped rather than trusted.
      const count = Number.isFinite(request.count) ? Math.max(1, Math.min(4, Math.floor(request.count))) : 1;
      const style = await referenceStyle(request.references);
      const images: MediaFile[] = [];
      // One at a time: sharp already uses every core for each render, and the caller can abort in between.
      for (let variant = 0; variant < count; variant++) {
        request.signal?.throwIfAborted();
        images.push({ data: await paint(request.prompt, variant, style, scale), mimeType: "image/png" });
      }
      return images;
    },
  };
}
