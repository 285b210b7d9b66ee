// GET /api/stories/{id}/backup: the whole story as one archive (every branch with its messages, versions and
// checkpoints, memory, cards with portraits, settings and every media file), saved by the browser under the
// server's file name; and what it holds, for the dialog to say before the download.
import { backupSummaryResponseSchema } from "@storyverse/contract/interop";
import { useQuery } from "@tanstack/react-query";
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

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "3 branches, 2 checkpoints, 41 pictures and clips". */
export function describeBackup(summary: { branches: number; checkpoints: number; media: number }): string {
  return `${count(summary.branches, "branch", "branches")}, ${count(summary.checkpoints, "checkpoint", "checkpoints")}, ${count(
    summary.media,
    "picture or clip",
    "pictures and clips",
  )}`;
}
