// POST /api/stories/{id}/messages/{message_id}/speech starts the narration of a narrator message (202 while it
// is made, 200 when it already was); GET on the same path reads how it is going, for polling, with the pieces
// spoken so far; GET .../speech/chunks/{index} is one of those pieces (audio/wav), the first sentence first.
import { type MessageSpeech, messageSpeechSchema } from "@storyverse/contract/voice";
import { apiDownload, apiRequest } from "../../../lib/api-client";

const speechPath = (storyId: string, messageId: string) =>
  `/api/stories/${encodeURIComponent(storyId)}/messages/${encodeURIComponent(messageId)}/speech`;

export function startMessageSpeech(
  storyId: string,
  messageId: string,
  signal?: AbortSignal,
): Promise<MessageSpeech> {
  return apiRequest(speechPath(storyId, messageId), {
    method: "POST",
    schema: messageSpeechSchema,
    signal,
    timeoutMs: 30_000,
  });
}

export function fetchMessageSpeech(
  storyId: string,
  messageId: string,
  signal?: AbortSignal,
): Promise<MessageSpeech> {
  return apiRequest(speechPath(storyId, messageId), {
    schema: messageSpeechSchema,
    signal,
    timeoutMs: 30_000,
  });
}

/** One spoken piece of a narration being made (a WAV); gone (an error) once the narration is stored. */
export async function fetchSpeechChunk(
  storyId: string,
  messageId: string,
  index: number,
  signal?: AbortSignal,
): Promise<Blob> {
  const { blob } = await apiDownload(`${speechPath(storyId, messageId)}/chunks/${index}`, { signal });
  return blob;
}
