// gpt-image-1 pictures: `images.generate` from a prompt, `images.edit` when reference images come along.
import { toFile } from "openai";
import { z } from "zod";
import { downloadMedia, inlineImage, malformedError, parseAnswer } from "../http";
import type { ImageProvider, MediaFile } from "../types";
import { callOpenAI, createOpenAIClient, type OpenAISettings } from "./client";

// gpt-image-1 has no 2K size; 1536x1024 is its largest landscape one, the closest to the app's 2K scenes, and
// 1024x1536 its portrait one (a story's 3:4 scenes; 4:3 and 16:9 take the landscape size).
export const openAIImageSize = "1536x1024";
const openAIPortraitSize = "1024x1536";

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
        prompt: request.prompt,
        n: request.count,
        size: request.aspectRatio === "3:4" ? openAIPortraitSize : openAIImageSize,
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
      return images.slice(0, request.count);
    },
  };
}
