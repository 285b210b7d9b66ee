// The offline image provider: paints a 2048x1536 PNG scene from the prompt with sharp, no network. The
// prompt seeds everything (same prompt, same bytes); reference images tint the palette, wash the scene
// in their colours and appear as a framed inset, so a selected character or artifact visibly carries over.
import sharp, { type OverlayOptions } from "sharp";
import type { ImageProvider, ImageRequest, MediaFile } from "../types";
import { type PreparedReferences, prepareReferences } from "./references";
import { SCENE_HEIGHT, SCENE_WIDTH, sceneSvg } from "./scene-svg";
import { detectTheme, paletteFor, tintPalette } from "./scene-theme";
import { createRng, hashString } from "./seeded";

/** How strongly references pull the palette toward their average colour. */
const REFERENCE_TINT = 0.16;
/** Golden-ratio step: variant seeds of one prompt land far apart. */
const VARIANT_STEP = 0x9e3779b9;

async function paint(
  prompt: string,
  variant: number,
  references: PreparedReferences | null,
): Promise<Buffer> {
  const seed = hashString(prompt.trim().toLowerCase());
  // The theme comes from the prompt alone, so every variant shows the same world; the composition varies.
  const theme = detectTheme(prompt, createRng(seed));
  const rng = createRng((seed + variant * VARIANT_STEP) >>> 0);
  let palette = paletteFor(theme, rng);
  if (references) palette = tintPalette(palette, references.tint, REFERENCE_TINT);
  const { svg, inset } = sceneSvg(theme, palette, rng, references?.size);

  const layers: OverlayOptions[] = [];
  if (references) {
    layers.push({
      input: references.wash,
      raw: { width: SCENE_WIDTH, height: SCENE_HEIGHT, channels: 4 },
      blend: "soft-light",
    });
    if (inset)
      layers.push({ input: references.inset, left: Math.round(inset.left), top: Math.round(inset.top) });
  }
  return sharp(Buffer.from(svg))
    .composite(layers)
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}

export function createOfflineImageProvider(): ImageProvider {
  return {
    name: "offline",
    async generate(request: ImageRequest): Promise<MediaFile[]> {
      request.signal?.throwIfAborted();
      // The contract allows 1..4; anything else is clamped rather than trusted.
      const count = Number.isFinite(request.count) ? Math.max(1, Math.min(4, Math.floor(request.count))) : 1;
      const references = await prepareReferences(request.references, SCENE_WIDTH, SCENE_HEIGHT);
      const images: MediaFile[] = [];
      // One at a time: sharp already uses every core for each render, and the caller can abort in between.
      for (let variant = 0; variant < count; variant++) {
        request.signal?.throwIfAborted();
        images.push({ data: await paint(request.prompt, variant, references), mimeType: "image/png" });
      }
      return images;
    },
  };
}
