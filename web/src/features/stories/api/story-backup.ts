// GET /api/stories/{id}/backup: the whole story as one archive (every branch with its messages, versions and
// checkpoints, memory, cards with portraits, settings and every media file), saved by the browser under the
// server's file name; and what it holds, for the dialog to say before the download.
import { backupSummaryResponseSchema } from "@storyverse/contract/interop";
import { useQuery } from "@tanstack/react-query";
import { i18n } from "../../../i18n/i18n";
import { apiDownload, apiRequest } from "../../../lib/api-client";

export async function downloadStoryBackup(storyId: string): Promise<void> {
  const { blob, filename } = await apiDownload(`/api/stories/${encodeURIComponent(storyId)}/backup`);
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename ?? "story.storyverse.zip";
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start saving before the URL is revoked.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}

/** GET /api/stories/{id}/backup/summary: how many branches, checkpoints, pictures and clips the backup holds. */
export function useBackupSummary(storyId: string) {
  return useQuery({
    queryKey: ["stories", storyId, "backup-summary"],
    queryFn: ({ signal }) =>
      apiRequest(`/api/stories/${encodeURIComponent(storyId)}/backup/summary`, {
        schema: backupSummaryResponseSchema,
        signal,
      }),
  });
}

/** "3 branches, 2 checkpoints, 41 pictures and clips", in the interface's language. */
export function describeBackup(summary: { branches: number; checkpoints: number; media: number }): string {
  return [
    i18n.t("story-tools:archive.branches", { count: summary.branches }),
    i18n.t("story-tools:archive.checkpoints", { count: summary.checkpoints }),
    i18n.t("story-tools:archive.media", { count: summary.media }),
  ].join(", ");
}
