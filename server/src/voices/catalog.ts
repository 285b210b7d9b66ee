// The voices the configured speech provider offers (GET /api/voices), kept a minute, and their samples (made
// once per provider and voice, kept in media storage: a vendor is paid for each sample only once).
import { createHash } from "node:crypto";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { SPEECH_OFF_DETAIL, UNKNOWN_VOICE_DETAIL } from "@storyverse/contract/voice";
import type { AppContext } from "../context";
import { InvalidInput, NotFound, ProviderFailed, Unavailable } from "../platform/errors";
import { wavFile } from "../platform/wav";
import { ProviderError, type VoiceInfo, type VoiceProvider } from "../providers/types";

type VoicesContext = Pick<AppContext, "providers" | "clock" | "log">;

/** How long a provider's voice list is kept: a voice added at the vendor shows within a minute. */
export const VOICE_LIST_TTL_MS = 60_000;
export const SAMPLE_TEXT = "Once upon a time, in a land far away, a story began. This is how I sound.";

/** Narration is off (TTS_PROVIDER=none): the calls that need a voice say so. */
export class SpeechOff extends Unavailable {
  constructor() {
    super(SPEECH_OFF_DETAIL);
  }
}

/** The speech provider could not say which voices it has. */
class VoiceListUnavailable extends ProviderFailed {
  constructor() {
    super("The speech provider could not list its voices. Please try again in a moment.");
  }
}

export function voiceProvider(ctx: Pick<AppContext, "providers">): VoiceProvider {
  const provider = ctx.providers.voice;
  if (!provider) throw new SpeechOff();
  return provider;
}

/** Speech the vendor bills is paid per 1,000 characters; speech made here (offline) is free. */
export const speechUnitPrice = (provider: VoiceProvider | undefined) =>
  provider?.billed ? CREDIT_COSTS.speech : 0;

const listed = new WeakMap<VoiceProvider, { at: number; voices: Promise<VoiceInfo[]> }>();

/** The provider's voices, kept a minute per provider; a failed listing is not kept. */
export async function listVoices(ctx: VoicesContext, provider = voiceProvider(ctx)): Promise<VoiceInfo[]> {
  const now = ctx.clock.now().getTime();
  let entry = listed.get(provider);
  if (!entry || now - entry.at >= VOICE_LIST_TTL_MS) {
    const voices = provider.listVoices();
    entry = { at: now, voices };
    listed.set(provider, entry);
    voices.catch(() => {
      if (listed.get(provider) === entry) listed.delete(provider);
    });
  }
  try {
    return await entry.voices;
  } catch (error) {
    ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "listing voices failed");
    throw new VoiceListUnavailable();
  }
}

/** A story's or card's voice must be one the provider lists (400 otherwise; 409 when narration is off). */
export async function assertVoiceOffered(ctx: VoicesContext, voice: string): Promise<void> {
  const voices = await listVoices(ctx);
  if (!voices.some((offered) => offered.id === voice)) throw new InvalidInput(UNKNOWN_VOICE_DETAIL);
}

export const sampleUrl = (voice: string) => `/api/voices/${encodeURIComponent(voice)}/sample`;

const sampleKey = (provider: VoiceProvider, voice: string) =>
  `voices/${provider.name}-${createHash("sha256").update(voice).digest("hex").slice(0, 32)}.wav`;

/** The sample of one listed voice as a WAV, made on first request and kept. */
export async function voiceSample(
  ctx: VoicesContext & Pick<AppContext, "storage">,
  voice: string,
): Promise<Buffer> {
  const provider = voiceProvider(ctx);
  if (!(await listVoices(ctx, provider)).some((offered) => offered.id === voice)) {
    throw new NotFound("Voice not found");
  }
  const key = sampleKey(provider, voice);
  try {
    return await ctx.storage.read(key);
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
  }
  let wav: Buffer;
  try {
    const audio = await provider.speak({ text: SAMPLE_TEXT, voice });
    wav = wavFile(audio);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    ctx.log.warn({ err: error, internal: error.internal, voice }, "voice sample failed");
    throw new ProviderFailed(`The voice sample could not be made: ${error.message}`);
  }
  await ctx.storage.put(key, wav, "audio/wav");
  return wav;
}
