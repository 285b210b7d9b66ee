// Counts every AI vendor call for the metrics (decision 0128): by vendor (the adapter's name), kind of call
// and outcome, and each failure by its reason. Wraps the chosen adapters once, at createProviders, so no
// adapter carries metrics code; the adapters' own fields (name, model, limits) read through unchanged.
import { metrics } from "../platform/metrics";
import { userMessages } from "./http";
import { ProviderError, type Providers } from "./types";

const reasons = Object.entries(userMessages) as [keyof typeof userMessages, string][];

/** Which of the user messages a failure carries (rejected ones add the vendor's words after it). */
function reasonOf(error: ProviderError): string {
  const text = error.message.replace(/[.:].*$/s, "");
  return reasons.find(([, message]) => message.replace(/[.:].*$/s, "") === text)?.[0] ?? "other";
}

const secondsSince = (startedAt: number) => (performance.now() - startedAt) / 1000;

function record(vendor: string, kind: string, error: unknown, startedAt: number): void {
  if (error instanceof ProviderError)
    metrics.vendorCall(vendor, kind, "error", reasonOf(error), secondsSince(startedAt));
  // Adapters turn every vendor failure into a ProviderError; anything else is the caller's own reason for
  // stopping (a Stop, a shutdown), passed through as it was thrown.
  else metrics.vendorCall(vendor, kind, "cancelled");
}

type AnyFunction = (...args: never[]) => unknown;

/** The provider with `method` counted; everything else is read from the provider itself. */
function counted<T extends { readonly name: string }>(
  provider: T,
  methods: Partial<Record<keyof T, string>>,
): T {
  const wrapper = Object.create(provider) as T;
  for (const [method, kind] of Object.entries(methods) as [keyof T, string][]) {
    const original = provider[method] as unknown as AnyFunction | undefined;
    if (typeof original !== "function") continue;
    (wrapper as Record<keyof T, unknown>)[method] = async (...args: never[]) => {
      const startedAt = performance.now();
      try {
        const result = await original.apply(provider, args);
        metrics.vendorCall(provider.name, kind, "ok", undefined, secondsSince(startedAt));
        return result;
      } catch (error) {
        record(provider.name, kind, error, startedAt);
        throw error;
      }
    };
  }
  return wrapper;
}

export function instrumentProviders(providers: Providers): Providers {
  const text = counted(providers.text, { complete: "text", listModels: "models" });
  const streamOf = providers.text.stream.bind(providers.text);
  text.stream = (request) =>
    (async function* () {
      let failed = false;
      const startedAt = performance.now();
      try {
        yield* streamOf(request);
      } catch (error) {
        failed = true;
        record(providers.text.name, "text", error, startedAt);
        throw error;
      } finally {
        // A stream the player stopped ends early, which is still a call that worked.
        if (!failed)
          metrics.vendorCall(providers.text.name, "text", "ok", undefined, secondsSince(startedAt));
      }
    })();
  return {
    text,
    image: counted(providers.image, { generate: "image", edit: "image_edit" }),
    video: counted(providers.video, { start: "video", poll: "video_poll" }),
    speech: providers.speech && counted(providers.speech, { transcribe: "transcription" }),
    voice: providers.voice && counted(providers.voice, { speak: "speech", listVoices: "voices" }),
    embeddings: providers.embeddings && counted(providers.embeddings, { embed: "embeddings" }),
  };
}
