// seedream-4 pictures on Replicate: one prediction at 2K (references inline as data URIs), waited for with
// `Prefer: wait` and then polled, its output links downloaded at once.
import { downloadMedia, toDataUrl, userMessages } from "../http";
import { type ImageProvider, ProviderError } from "../types";
import {
  createPrediction,
  failureMessage,
  outputUrls,
  type ReplicateSettings,
  replicateContext,
  waitForPrediction,
} from "./predictions";

const maxReferences = 10;
// Content-policy refusals will refuse again; other failures may pass on a second try.
const finalFailure = /sensitive|nsfw|safety|policy|E005/i;

export function createReplicateImageProvider(settings: ReplicateSettings): ImageProvider {
  const ctx = replicateContext(settings);
  return {
    name: "replicate",

    async generate(request) {
      if (request.references.length > maxReferences) {
        throw new ProviderError(
          `${userMessages.rejected}: at most ${maxReferences} reference images are allowed.`,
          false,
          `replicate ${request.references.length} references`,
        );
      }
      const withReferences = request.references.length > 0;
      const input = {
        prompt: request.prompt,
        ...(withReferences ? { image_input: request.references.map(toDataUrl) } : {}),
        size: "2K",
        // The chosen shape (seedream-4 takes all six by name, decision 0149); else 4:3, the app's scene shape,
        // and with references the shape they have. Its input has no seed: the provider does not take one.
        aspect_ratio: request.aspectRatio ?? (withReferences ? "match_input_image" : "4:3"),
        ...(request.count > 1 ? { sequential_image_generation: "auto", max_images: request.count } : {}),
      };
      const startedAt = Date.now();
      const created = await createPrediction(ctx, settings.model, input, {
        wait: true,
        signal: request.signal,
      });
      const prediction = await waitForPrediction(ctx, created, {
        startedAt,
        pollIntervalMs: settings.pollIntervalMs ?? 1000,
        signal: request.signal,
      });
      if (prediction.status !== "succeeded") {
        const text = typeof prediction.error === "string" ? prediction.error : "";
        throw new ProviderError(
          failureMessage(ctx, prediction, "image"),
          !finalFailure.test(text),
          `replicate prediction ${prediction.status}`,
        );
      }
      return Promise.all(
        outputUrls(ctx, prediction)
          .slice(0, request.count)
          .map((url) =>
            downloadMedia(ctx, url, { kind: "image", timeoutMs: ctx.timeoutMs, signal: request.signal }),
          ),
      );
    },
  };
}
