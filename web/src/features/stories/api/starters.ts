// GET /api/starters and POST /api/starters/{id}/start: the ready-made scenarios shipped with the app, offered
// in the empty Stories list; starting one makes a new story from it with its opening in place.
import {
  type ImportedStoryResponse,
  importedStoryResponseSchema,
  startersResponseSchema,
} from "@storyverse/contract/interop";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { addNewStory } from "./import-story";

const STARTERS_KEY = ["starters"] as const;

const startersQueryOptions = () =>
  queryOptions({
    queryKey: STARTERS_KEY,
    queryFn: ({ signal }) =>
      apiRequest("/api/starters", { schema: startersResponseSchema, signal, timeoutMs: 30_000 }).then(
        (response) => response.starters,
      ),
    // The app's own scenarios change only with a new release.
    staleTime: 60 * 60_000,
  });

export function useStarters() {
  return useQuery(startersQueryOptions());
}

export function startStarter(starterId: string): Promise<ImportedStoryResponse> {
  return apiRequest(`/api/starters/${encodeURIComponent(starterId)}/start`, {
    method: "POST",
    schema: importedStoryResponseSchema,
    timeoutMs: 60_000,
  });
}

export function useStartStarter() {
  const queryClient = useQueryClient();
  return useMutation<ImportedStoryResponse, Error, string>({
    mutationFn: startStarter,
    onSuccess: ({ story }) => addNewStory(queryClient, story),
  });
}
