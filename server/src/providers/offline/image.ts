// The offline image provider: paints a 2048x1536 PNG scene from the prompt with sharp, no network (a story's
// 16:9 scene is 2048x1152 and its 3:4 scene 1536x2048, cut from the middle of a scene painted large enough). The
// prompt seeds everything (same prompt, same bytes). Reference images steer the picture without appearing
// in it: their dominant colours recolour the palette and their light decides which side the scene's light
// is on (`referenceStyle`), so a selected character's red cloak makes a redder scene, not a pasted photo.
import sharp from "sharp";
import type { ImageProvider, ImageRequest, MediaFile } from "../types";
import { editOffline } from "./image-edit";
import { type ReferenceStyle, referenceStyle } from "./references";
import { SCENE_HEIGHT, SCENE_WIDTH } from "./scene-canvas";
import { sceneSvg } from "./scene-svg";
import { detectTheme, paletteFor, recolourPalette } from "./scene-theme";
import { createRng, hashString } from "./seeded";

/** How strongly references pull the palette toward their dominant colours. */
const REFERENCE_PULL = 0.6;
/** Golden-ratio step: variant seeds of one prompt land far apart. */
const VARIANT_STEP = 0x9e3779b9;

type AspectRatio = NonNullable<ImageRequest["aspectRatio"]>;

/** Each shape's picture at 2K: the long side is 2048 px, as the painted scene's is. */
const SHAPES: Record<AspectRatio, { width: number; height: number }> = {
  "4:3": { width: SCENE_WIDTH, height: SCENE_HEIGHT },
  "16:9": { width: 2048, height: 1152 },
  "3:4": { width: 1536, height: 2048 },
};

async function paint(
  prompt: string,
  variant: number,
  style: ReferenceStyle | null,
  scale: number,
  aspectRatio: AspectRatio,
): Promise<Buffer> {
  const seed = hashString(prompt.trim().toLowerCase());
  // The theme comes from the prompt alone, so every variant shows the same world; the composition varies.
  const theme = detectTheme(prompt, createRng(seed));
  const rng = createRng((seed + variant * VARIANT_STEP) >>> 0);
  let palette = paletteFor(theme, rng);
  if (style) palette = recolourPalette(palette, style.dominant, REFERENCE_PULL);
  const svg = sceneSvg(theme, palette, rng, style?.focusX);
  const shape = SHAPES[aspectRatio];
  // The SVG is 2048x1536 at 72 dpi; the density rasterises it as large as the shape needs to be covered (a
  // taller shape paints it larger), and a lower scale smaller (and faster).
  const cover = Math.max(shape.width / SCENE_WIDTH, shape.height / SCENE_HEIGHT);
  const painted = sharp(Buffer.from(svg), { density: 72 * scale * cover });
  if (aspectRatio === "4:3") return painted.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
  // Cut from the middle of what was really rasterised (a density's rounding can miss a pixel row).
  const { data, info } = await painted.raw().toBuffer({ resolveWithObject: true });
  const width = Math.min(Math.round(shape.width * scale), info.width);
  const height = Math.min(Math.round(shape.height * scale), info.height);
  const framed = sharp(data, {
    raw: { width: info.width, height: info.height, channels: info.channels },
  }).extract({
    left: Math.floor((info.width - width) / 2),
    top: Math.floor((info.height - height) / 2),
    width,
    height,
  });
  return framed.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
}

/** `scale` (0.05..1, default 1) shrinks the pictures: load and scale tests run many on a small machine. */
export function createOfflineImageProvider(options: { scale?: number | undefined } = {}): ImageProvider {
  const scale = options.scale ?? 1;
  return {
    name: "offline",
    editKinds: ["inpaint", "outpaint", "vary", "upscale"],
    edit: editOffline,
    async generate(request: ImageRequest): Promise<MediaFile[]> {
      request.signal?.throwIfAborted();
      // The contract allows 1..4; anything else is clamped rather than trusted.
      const count = Number.isFinite(request.count) ? Math.max(1, Math.min(4, Math.floor(request.count))) : 1;
      const style = await referenceStyle(request.references);
      const images: MediaFile[] = [];
      // One at a time: sharp already uses every core for each render, and the caller can abort in between.
      for (let variant = 0; variant < count; variant++) {
        request.signal?.throwIfAborted();
        images.push({
          data: await paint(request.prompt, variant, style, scale, request.aspectRatio ?? "4:3"),
          mimeType: "image/png",
        });
      }
      return images;
    },
  };
}
