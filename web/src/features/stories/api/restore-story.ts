// POST /api/stories/restore: a whole-story backup archive (.zip, multipart field `file`) becomes a new story,
// media included. Free; the answer's notes say what could not be brought back.
import { type ImportedStoryResponse, importedStoryResponseSchema } from "@storyverse/contract/interop";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { addNewStory, fileForm } from "./import-story";

/** The backup archives restore reads, for the file picker. */
export const BACKUP_FILE_TYPES = ".zip,application/zip";

/** A large archive (up to BACKUP_FILE_MAX_MB) on a slow line, then every media file's checks. */
const RESTORE_TIMEOUT_MS = 600_000;

export function restoreStory(file: File): Promise<ImportedStoryResponse> {
  return apiRequest("/api/stories/restore", {
    method: "POST",
    body: fileForm(file),
    schema: importedStoryResponseSchema,
    timeoutMs: RESTORE_TIMEOUT_MS,
  });
}

export function useRestoreStory() {
  const queryClient = useQueryClient();
  return useMutation<ImportedStoryResponse, Error, File>({
    mutationFn: restoreStory,
    onSuccess: ({ story }) => addNewStory(queryClient, story),
  });
}
