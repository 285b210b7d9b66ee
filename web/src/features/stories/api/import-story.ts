// POST /api/stories/import: a character card file (JSON, PNG/APNG or CHARX, multipart field `file`) becomes a
// new story with its opening message in place. Free; the answer's notes say what was cut or left out.
import { type ImportedStoryResponse, importedStoryResponseSchema } from "@storyverse/contract/interop";
import type { Story } from "@storyverse/contract/stories";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { refreshStoryList, updateListedStories } from "./list-stories";

/** The files the importer reads, for the file picker. */
export const CARD_FILE_TYPES = ".png,.apng,.json,.charx";

/** A 20 MB upload on a slow line, then the server's checks of the file and its pictures. */
const UPLOAD_TIMEOUT_MS = 180_000;

/** A file in a multipart body's one `file` field, as every interop upload sends it. */
export function fileForm(file: File): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  return form;
}

export function importStory(file: File): Promise<ImportedStoryResponse> {
  return apiRequest("/api/stories/import", {
    method: "POST",
    body: fileForm(file),
    schema: importedStoryResponseSchema,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** A story that arrived by import, restore or a starter goes to the top of the list at once. */
export function addNewStory(queryClient: QueryClient, story: Story): void {
  updateListedStories(queryClient, (stories, firstPage) => [
    ...(firstPage ? [story] : []),
    ...stories.filter((s) => s.id !== story.id),
  ]);
  refreshStoryList(queryClient);
}

export function useImportStory() {
  const queryClient = useQueryClient();
  return useMutation<ImportedStoryResponse, Error, File>({
    mutationFn: importStory,
    onSuccess: ({ story }) => addNewStory(queryClient, story),
  });
}
