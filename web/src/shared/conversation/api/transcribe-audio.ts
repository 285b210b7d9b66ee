// POST /api/transcribe-audio: a voice recording (multipart field `audio`, WebM or MP4) to text.
import { transcriptionResponseSchema } from "@storyverse/contract/chat";
import { apiRequest } from "../../../lib/api-client";

export type TranscriptionResponse = ReturnType<typeof transcriptionResponseSchema.parse>;

export function transcribeAudio(audio: Blob, filename: string): Promise<TranscriptionResponse> {
  const form = new FormData();
  form.append("audio", audio, filename);
  return apiRequest("/api/transcribe-audio", {
    method: "POST",
    body: form,
    schema: transcriptionResponseSchema,
    timeoutMs: 120_000,
  });
}
