// The offline text provider: the deterministic narrator behind the TextProvider interface. It answers by the
// request's purpose and typed facts (decision 0151), never by the prompt's wording. stream()
// hands out the same answer word by word at a reading pace (40 words a second unless configured), the way a
// vendor streams tokens, so the streaming narrator and its Stop button show without a network.
import { TEXT_PURPOSES, type TextProvider, type TextRequest } from "../types";
import { narrate } from "./narrator";

/** Words, each keeping its trailing whitespace, so the pieces join back exactly. */
const splitWords = (text: string): string[] => text.split(/(?<=\s)(?=\S)/);

const DEFAULT_WORDS_PER_SECOND = 40;

/** The offline narrator's one model: the same deterministic narrator whatever a story chooses. */
export const OFFLINE_TEXT_MODEL = "offline-narrator";

export function createOfflineTextProvider(
  options: { wordsPerSecond?: number | undefined } = {},
): TextProvider {
  const wordsPerSecond = options.wordsPerSecond ?? DEFAULT_WORDS_PER_SECOND;
  const pause = (signal: AbortSignal | undefined) =>
    new Promise<void>((resolve) => {
      // Yield to the event loop between pieces, as a network stream would; pace them when asked to.
      if (wordsPerSecond <= 0) {
        setImmediate(resolve);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, 1000 / wordsPerSecond);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  return {
    name: "offline",
    defaultModel: OFFLINE_TEXT_MODEL,
    // Living lore reads the narration with its own deterministic readers when no model can.
    purposes: TEXT_PURPOSES.filter((purpose) => purpose !== "lore"),
    async listModels() {
      return [OFFLINE_TEXT_MODEL];
    },
    async complete(request: TextRequest): Promise<string> {
      request.signal?.throwIfAborted();
      return narrate(request);
    },
    async *stream(request: TextRequest): AsyncIterable<string> {
      request.signal?.throwIfAborted();
      for (const word of splitWords(narrate(request))) {
        await pause(request.signal);
        request.signal?.throwIfAborted();
        yield word;
      }
    },
  };
}
