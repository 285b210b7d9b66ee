// What is kept of an uploaded card portrait. An upload is never stored as sent: it is re-encoded as a WebP of
// at most PORTRAIT_MAX_EDGE pixels on its long side and at most PORTRAIT_MAX_STORED_BYTES, so what one
// account can keep is bounded by PORTRAIT_UPLOADS_MAX x PORTRAIT_MAX_STORED_BYTES however large the pictures
// sent (the audit's flood of portraits is in decision 0067). The process re-encodes at most
// MAX_CONCURRENT_PORTRAIT_ENCODES at once, so a flood cannot take the thread pool that serves files; how
// many uploads a player may send is the routes' gate (portrait-gate.ts).
import { PORTRAIT_MAX_EDGE } from "@storyverse/contract/story-cards";
import sharp from "sharp";
import { MAX_INPUT_PIXELS } from "../media";
import { InvalidInput } from "../platform/errors";
import { createSlots } from "../platform/slots";

/** The most one kept portrait may weigh; a 1024 px photo or painting is well under it at the first step. */
export const PORTRAIT_MAX_STORED_BYTES = 512 * 1024;
export const MAX_CONCURRENT_PORTRAIT_ENCODES = 2;

const PORTRAIT_TOO_DETAILED_DETAIL =
  "portrait: this picture has too much fine detail to keep as a portrait. Please choose another.";

/** Smaller and smaller, until the picture fits PORTRAIT_MAX_STORED_BYTES (noise-like pictures need it). */
const STEPS = [
  { edge: PORTRAIT_MAX_EDGE, quality: 82 },
  { edge: 768, quality: 75 },
  { edge: 512, quality: 70 },
];

const slots = createSlots(MAX_CONCURRENT_PORTRAIT_ENCODES);
let encodes = 0;

/** How many portraits this process has re-encoded, and the most it encoded at once. */
export const portraitEncodingActivity = () => ({ encodes, ...slots.activity() });

/** The portrait as it is kept: upright, at most PORTRAIT_MAX_EDGE px, WebP (transparency kept). */
export function encodePortrait(data: Buffer): Promise<{ data: Buffer; mimeType: "image/webp" }> {
  encodes += 1;
  return slots.run(async () => {
    // Decoded once, at the largest size kept; the smaller steps start from that.
    const base = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      .resize(PORTRAIT_MAX_EDGE, PORTRAIT_MAX_EDGE, { fit: "inside", withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width, height, channels } = base.info;
    for (const step of STEPS) {
      const webp = await sharp(base.data, { raw: { width, height, channels } })
        .resize(step.edge, step.edge, { fit: "inside", withoutEnlargement: true })
        .webp({ quality: step.quality })
        .toBuffer();
      if (webp.length <= PORTRAIT_MAX_STORED_BYTES) return { data: webp, mimeType: "image/webp" as const };
    }
    throw new InvalidInput(PORTRAIT_TOO_DETAILED_DETAIL);
  });
}
