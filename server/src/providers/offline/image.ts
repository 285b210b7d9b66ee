// The offline image provider: paints a PNG scene from the prompt with sharp, no network, 2K on the long side
// in every shape (decision 0149): 4:3 is 2048x1536, 1:1 2048x2048, 3:4 1536x2048, 16:9 2048x1152, 9:16
// 1152x2048, 21:9 2048x878, each cut from a scene painted large enough to cover it, around its subject. The prompt
// picks the world (its theme) and the seed its composition: the same prompt and seed give the same bytes, and
// another seed another picture of the same world. Picture i of a batch is painted with seed + i, so each one
// repeats alone with its own seed. Reference images steer the picture without appearing
// in it: their dominant colours recolour the palette and their light decides which side the scene's light
// is on (`referenceRoles`), so a selected character's red cloak makes a redder scene, not a pasted photo.
// By role (decision 0161): style references pull the palette harder and leave the light alone; a character
// reference puts the figure in the scene, in the character's colour, on its picture's side.
import sharp from "sharp";
import type { ImageAspectRatio, ImageProvider, ImageRequest, MediaFile } from "../types";
import { editOffline } from "./image-edit";
import { type ReferenceRoles, referenceRoles } from "./references";
import { SCENE_HEIGHT, SCENE_WIDTH } from "./scene-canvas";
import { paintScene } from "./scene-svg";
import { detectTheme, paletteFor, recolourPalette } from "./scene-theme";
import { createRng, hashString } from "./seeded";

/** How strongly references pull the palette toward their dominant colours. */
const REFERENCE_PULL = 0.6;
/** Style references (decision 0161) pull harder: how the picture looks is what they are for. */
const STYLE_PULL = 0.85;
/** Golden-ratio step: neighbouring seeds of one prompt land far apart. */
const VARIANT_STEP = 0x9e3779b9;

/** Each shape's picture at 2K: the long side is 2048 px, as the painted scene's is. */
export const OFFLINE_SHAPES: Record<ImageAspectRatio, { width: number; height: number }> = {
  "1:1": { width: 2048, height: 2048 },
  "4:3": { width: SCENE_WIDTH, height: SCENE_HEIGHT },
  "3:4": { width: 1536, height: 2048 },
  "16:9": { width: 2048, height: 1152 },
  "9:16": { width: 1152, height: 2048 },
  "21:9": { width: 2048, height: 878 },
};

async function paint(
  prompt: string,
  seed: number,
  roles: ReferenceRoles,
  scale: number,
  aspectRatio: ImageAspectRatio,
): Promise<Buffer> {
  const world = hashString(prompt.trim().toLowerCase());
  // The theme comes from the prompt alone, so every seed shows the same world; the composition varies.
  const theme = detectTheme(prompt, createRng(world));
  const rng = createRng((world + Math.imul(seed, VARIANT_STEP)) >>> 0);
  let palette = paletteFor(theme, rng);
  const style = roles.content;
  if (style) palette = recolourPalette(palette, style.dominant, REFERENCE_PULL);
  if (roles.style) palette = recolourPalette(palette, roles.style, STYLE_PULL);
  const { svg, subjectX } = paintScene(theme, palette, rng, style?.focusX, roles.character ?? undefined);
  const shape = OFFLINE_SHAPES[aspectRatio];
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
    left: cropLeft(subjectX, info.width, width),
    top: Math.floor((info.height - height) / 2),
    width,
    height,
  });
  return framed.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
}

/**
 * Where a cut `cropWidth` wide starts in a scene `fullWidth` wide so that the subject (0..1 across) stands on
 * the cut's nearer third, inside the scene; a cut as wide as the scene starts at 0.
 */
export function cropLeft(subjectX: number, fullWidth: number, cropWidth: number): number {
  const spare = fullWidth - cropWidth;
  if (spare <= 0) return 0;
  const third = subjectX > 0.5 ? 2 / 3 : 1 / 3;
  const left = Math.round(subjectX * fullWidth - third * cropWidth);
  return Math.max(0, Math.min(spare, left));
}

/** `scale` (0.05..1, default 1) shrinks the pictures: load and scale tests run many on a small machine. */
export function createOfflineImageProvider(options: { scale?: number | undefined } = {}): ImageProvider {
  const scale = options.scale ?? 1;
  return {
    name: "offline",
    takesSeed: true,
    editKinds: ["inpaint", "outpaint", "vary", "upscale"],
    edit: editOffline,
    async generate(request: ImageRequest): Promise<MediaFile[]> {
      request.signal?.throwIfAborted();
      // The contract allows 1..4; anything else is clamped rather than trusted.
      const count = Number.isFinite(request.count) ? Math.max(1, Math.min(4, Math.floor(request.count))) : 1;
      const roles = await referenceRoles(request.references);
      const images: MediaFile[] = [];
      // One at a time: sharp already uses every core for each render, and the caller can abort in between.
      // Without a seed the pictures are the prompt's seeds 0, 1, ... (what the painter made before seeds).
      const first = request.seed ?? 0;
      for (let index = 0; index < count; index++) {
        request.signal?.throwIfAborted();
        const seed = (first + index) >>> 0;
        images.push({
          data: await paint(request.prompt, seed, roles, scale, request.aspectRatio ?? "4:3"),
          mimeType: "image/png",
        });
      }
      return images;
    },
  };
}
