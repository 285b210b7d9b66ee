// POST /api/stories/{id}/cards/import: a character card or a lorebook file into the story's Story Cards.
// The dialog calls it twice: first as a dry run (the preview: what would be made, what is skipped and why,
// nothing saved), then for real once the player confirms.
import {
  type CardsImportResponse,
  cardsImportResponseSchema,
  type OnDuplicate,
} from "@storyverse/contract/interop";
import { apiRequest } from "../../../lib/api-client";

export async function importCardsFile(
  storyId: string,
  file: File,
  dryRun: boolean,
  /** What to do with entries the story already has a card for (the server's default: skip them). */
  onDuplicate: OnDuplicate = "skip",
): Promise<CardsImportResponse> {
  const form = new FormData();
  form.append("file", file, file.name);
  const choice = onDuplicate === "skip" ? "" : `&on_duplicate=${onDuplicate}`;
  return apiRequest(`/api/stories/${encodeURIComponent(storyId)}/cards/import?dry_run=${dryRun}${choice}`, {
    method: "POST",
    body: form,
    schema: cardsImportResponseSchema,
    // A 20 MB upload and its portraits on a slow line.
    timeoutMs: 120_000,
  });
}
