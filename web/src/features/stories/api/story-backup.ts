// GET /api/stories/{id}/backup: the whole story as one archive (messages with their versions, memory, cards
// with portraits, settings and every media file), saved by the browser under the server's file name.
import { apiDownload } from "../../../lib/api-client";

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
