// POST /api/stories/{id}/speech/live: one sentence of a turn being written, spoken at once in the story's voices
// (audio/wav, offline voice only), for "Read new turns aloud". A group scene's turn names its speaker, whose card's
// voice reads it (decision 0164).
import { apiDownload } from "../../../lib/api-client";

export async function fetchLiveSpeech(
  storyId: string,
  text: string,
  signal?: AbortSignal,
  speakerId?: string,
): Promise<Blob> {
  const { blob } = await apiDownload(`/api/stories/${encodeURIComponent(storyId)}/speech/live`, {
    json: speakerId ? { text, speaker_id: speakerId } : { text },
    signal,
  });
  return blob;
}
