// GET /api/voices: the voices the server's speech provider offers, its default and its price; and GET
// /api/voices/{id}/sample, a short sample of one voice (audio/wav, behind the session like every call).
import { type VoicesResponse, voicesResponseSchema } from "@storyverse/contract/voice";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiDownload, apiRequest } from "../../../lib/api-client";

export const VOICES_KEY = ["voices"] as const;

/** Provider "none": the server has narration switched off, so no voice control is shown. */
export const NARRATION_OFF_PROVIDER = "none";

export const voicesQueryOptions = () =>
  queryOptions({
    queryKey: VOICES_KEY,
    queryFn: ({ signal }) =>
      apiRequest("/api/voices", { schema: voicesResponseSchema, signal, timeoutMs: 30_000 }),
    // The provider and its voices only change when the server restarts with another configuration.
    staleTime: 10 * 60_000,
  });

/** The voices when narration is on; null while they load, when they cannot be read, or when it is off. */
export function useVoices(): VoicesResponse | null {
  const { data } = useQuery(voicesQueryOptions());
  return data && data.provider !== NARRATION_OFF_PROVIDER ? data : null;
}

/** The voice's sample as a blob, fetched with the session (an <audio> element cannot send the header). */
export async function fetchVoiceSample(sampleUrl: string, signal?: AbortSignal): Promise<Blob> {
  const { blob } = await apiDownload(sampleUrl, { signal });
  return blob;
}
