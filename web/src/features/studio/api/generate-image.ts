// POST /api/studio/generate-image: a batch of 1 to 4 images from a prompt and up to 10 input images
// (1.5 credits each). The server answers once the images exist, so the wait is long.
import {
  type StudioGenerateRequest,
  type StudioGenerateResponse,
  studioGenerateResponseSchema,
} from "@storyverse/contract/studio";
import { apiRequest } from "../../../lib/api-client";

export const GENERATE_TIMEOUT_MS = 5 * 60_000;

export function generateImages(body: StudioGenerateRequest): Promise<StudioGenerateResponse> {
  return apiRequest("/api/studio/generate-image", {
    method: "POST",
    body,
    schema: studioGenerateResponseSchema,
    timeoutMs: GENERATE_TIMEOUT_MS,
  });
}
