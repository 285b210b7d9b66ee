// gpt-image-1 pictures: `images.generate` from a prompt, `images.edit` when reference images come along, and
// picture edits (decision 0145): an inpaint is `images.edit` with the picture and a mask (OpenAI's mask is
// transparent where it may paint), a variation is `images.edit` with the picture alone. The answer is brought
// back to the picture's size, and an inpaint keeps every pixel outside the mask from the original, so only the
// brushed region changes whatever the vendor repainted.
import { toFile } from "openai";
import sharp from "sharp";
import { z } from "zod";
import { downloadMedia, inlineImage, malformedError, parseAnswer } from "../http";
import { promptWithRoles } from "../reference-roles";
import type { ImageAspectRatio, ImageEditRequest, ImageProvider, MediaFile } from "../types";
import { callOpenAI, createOpenAIClient, type OpenAISettings } from "./client";

// gpt-image-1 has no 2K size; 1536x1024 is its largest landscape one, the closest to the app's 2K scenes,
// 1024x1536 its portrait one and 1024x1024 its square. Each shape asks for the nearest (decision 0149) and the
// answer is cut to the shape asked for, from its middle (a 16:9 picture from 1536x1024 is 1536x864). OpenAI's
// images take no seed: the provider does not take one.
export const openAIImageSize = "1536x1024";
const openAIPortraitSize = "1024x1536";
export const openAISizes: Record<ImageAspectRatio, string> = {
  "1:1": "1024x1024",
  "4:3": openAIImageSize,
  "3:4": openAIPortraitSize,
  "16:9": openAIImageSize,
  "9:16": openAIPortraitSize,
  "21:9": openAIImageSize,
};

const imagesSchema = z.object({
  // gpt-image-1 always answers base64; a compatible server may answer links instead.
  data: z.array(z.object({ b64_json: z.string().nullish(), url: z.string().nullish() })).min(1),
});

const extensions: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

export function createOpenAIImageProvider(settings: OpenAISettings): ImageProvider {
  const client = createOpenAIClient(settings);
  return {
    name: settings.vendor,

    async generate(request) {
      const common = {
        model: settings.model,
        // Each style or character reference is named in the prompt by its place (decision 0161).
        prompt: promptWithRoles(request.prompt, request.references),
        n: request.count,
        size: request.aspectRatio ? openAISizes[request.aspectRatio] : openAIImageSize,
      } as const;
      const answer = await callOpenAI(settings, request.signal, async (signal) => {
        if (request.references.length === 0) return client.images.generate(common, { signal });
        const image = await Promise.all(
          request.references.map((file, index) =>
            toFile(file.data, `reference-${index + 1}.${extensions[file.mimeType] ?? "png"}`, {
              type: file.mimeType,
            }),
          ),
        );
        return client.images.edit({ ...common, image }, { signal });
      });
      const items = parseAnswer(imagesSchema, answer, settings, "images").data;
      const images: MediaFile[] = [];
      for (const item of items) {
        if (item.b64_json) images.push(inlineImage(Buffer.from(item.b64_json, "base64"), settings));
        else if (item.url) {
          images.push(
            await downloadMedia(settings, item.url, {
              kind: "image",
              timeoutMs: settings.timeoutMs,
              signal: request.signal,
            }),
          );
        } else throw malformedError(settings, "image item without b64_json or url");
      }
      const shape = request.aspectRatio;
      return Promise.all(
        images.slice(0, request.count).map((image) => (shape ? cutToShape(image, shape) : image)),
      );
    },

    editKinds: ["inpaint", "vary"],

    async edit(request) {
      const source = await sharp(request.image.data)
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height } = source.info;
      const size = width > height ? openAIImageSize : width < height ? openAIPortraitSize : "1024x1024";
      const image = await toFile(
        await sharp(source.data, { raw: { width, height, channels: 4 } })
          .png()
          .toBuffer(),
        "image.png",
        { type: "image/png" },
      );
      const paintHere = request.kind === "inpaint" && request.mask ? await maskAlpha(request.mask) : null;
      const mask = paintHere
        ? await toFile(await openAIMask(paintHere, width, height), "mask.png", { type: "image/png" })
        : undefined;
      const prompt =
        request.kind === "vary"
          ? `${request.strength === "strong" ? "A bold" : "A close"} variation of this picture: ${request.prompt}`
          : request.prompt;
      const answer = await callOpenAI(settings, request.signal, (signal) =>
        client.images.edit(
          { model: settings.model, prompt, n: 1, size, image, ...(mask ? { mask } : {}) },
          { signal },
        ),
      );
      const [item] = parseAnswer(imagesSchema, answer, settings, "images").data;
      const painted = item?.b64_json
        ? inlineImage(Buffer.from(item.b64_json, "base64"), settings)
        : item?.url
          ? await downloadMedia(settings, item.url, {
              kind: "image",
              timeoutMs: settings.timeoutMs,
              signal: request.signal,
            })
          : undefined;
      if (!painted) throw malformedError(settings, "image item without b64_json or url");
      return {
        data: await fitBack(request, painted.data, source.data, width, height, paintHere),
        mimeType: "image/png",
      };
    },
  };
}

/** Our mask's alpha channel (alpha >= 128: repaint), one byte per pixel. */
async function maskAlpha(mask: Buffer): Promise<Buffer> {
  return sharp(mask).ensureAlpha().extractChannel(3).raw().toBuffer();
}

/** OpenAI's mask: the picture's size, transparent where it may paint, opaque elsewhere. */
async function openAIMask(paintHere: Buffer, width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 4, 0);
  for (let i = 0; i < width * height; i++) pixels[i * 4 + 3] = paintHere[i]! >= 128 ? 0 : 255;
  return sharp(pixels, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** The vendor's picture at the original's size; for an inpaint, only the masked pixels are taken from it. */
async function fitBack(
  request: ImageEditRequest,
  painted: Buffer,
  original: Buffer,
  width: number,
  height: number,
  paintHere: Buffer | null,
): Promise<Buffer> {
  const resized = await sharp(painted).resize(width, height, { fit: "fill" }).ensureAlpha().raw().toBuffer();
  const out = request.kind === "inpaint" && paintHere ? Buffer.from(original) : resized;
  if (out !== resized && paintHere) {
    for (let i = 0; i < width * height; i++)
      if (paintHere[i]! >= 128) resized.copy(out, i * 4, i * 4, i * 4 + 4);
  }
  return sharp(out, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** The picture cut to the shape's ratio from its middle (never enlarged); already that shape: unchanged. */
async function cutToShape(image: MediaFile, shape: ImageAspectRatio): Promise<MediaFile> {
  const [w, h] = shape.split(":").map(Number) as [number, number];
  const { width, height } = await sharp(image.data).metadata();
  if (!width || !height) return image;
  const wanted = w / h;
  if (Math.abs(width / height - wanted) < 0.01) return image;
  const cutWidth = Math.min(width, Math.round(height * wanted));
  const cutHeight = Math.min(height, Math.round(cutWidth / wanted));
  const data = await sharp(image.data)
    .extract({
      left: Math.floor((width - cutWidth) / 2),
      top: Math.floor((height - cutHeight) / 2),
      width: cutWidth,
      height: cutHeight,
    })
    .png()
    .toBuffer();
  return { data, mimeType: "image/png" };
}
