// GET /api/media/{id}/details (decision 0141): one gallery item's prompt, size, model, seed and lineage. Read by
// the Gallery's details panel and by the picture editor (its size and prompt), under one cache key.
import { mediaDetailsSchema } from "@storyverse/contract/gallery";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";
import { GALLERY_KEY } from "./gallery-page";

export const mediaDetailsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...GALLERY_KEY, "details", id] as const,
    queryFn: ({ signal }) =>
      apiRequest(`/api/media/${id}/details`, { schema: mediaDetailsSchema, signal, timeoutMs: 30_000 }),
  });
