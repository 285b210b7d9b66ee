// Reading a text-to-speech answer of raw PCM (OpenAI's `pcm`, ElevenLabs' `pcm_22050`): the body must really
// be audio, not a JSON or HTML page answered with 200, and is read with a size cap. Shared by the OpenAI and
// ElevenLabs voice adapters.
import { malformedError, userMessages, type VendorContext } from "../http";
import { ProviderError } from "../types";

/** About 20 minutes at 24 kHz: far beyond the longest text a provider takes in one call. */
export const maxSpeechBytes = 64 * 1024 * 1024;

/** The PCM samples of a successful answer, or a ProviderError for a body that is not audio. */
export async function readPcmAnswer(
  response: Response,
  ctx: VendorContext,
  maxBytes = maxSpeechBytes,
): Promise<Buffer> {
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  if (/json|html|text\//.test(type)) {
    await response.body?.cancel().catch(() => undefined);
    throw malformedError(ctx, `speech answer is ${type}, not audio`);
  }
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderError(userMessages.tooLarge, false, `${ctx.vendor} speech over ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new ProviderError(userMessages.tooLarge, false, `${ctx.vendor} speech over ${maxBytes} bytes`);
      }
      chunks.push(Buffer.from(value));
    }
  }
  if (total === 0) throw malformedError(ctx, "speech answer is empty");
  const pcm = Buffer.concat(chunks, total);
  // 16-bit samples come in byte pairs; a dangling byte would shift every later sample of a joined narration.
  return total % 2 === 0 ? pcm : pcm.subarray(0, total - 1);
}
