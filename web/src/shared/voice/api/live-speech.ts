// POST /api/stories/{id}/speech/live: one sentence of a turn being written, spoken at once in the story's voices
// (audio/wav, offline voice only), for "Read new turns aloud".
import { apiDownload } from "../../../lib/api-client";

export async function fetchLiveSpeech(storyId: string, text: string, signal?: AbortSignal): Promise<Blob> {
  const { blob } = await apiDownload(`/api/stories/${encodeURIComponent(storyId)}/speech/live`, {
    json: { text },
    signal,
  });
  return blob;
}
