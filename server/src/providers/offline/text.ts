// The offline text provider: the deterministic narrator behind the TextProvider interface. stream()
// hands out the same answer in word groups, the way a vendor streams tokens, so the chat UI's streaming
// path is exercised without a network.
import type { TextProvider, TextRequest } from "../types";
import { narrate } from "./narrator";
import { createRng, hashString } from "./seeded";

/** Word groups of 2-6 words, each keeping its trailing whitespace, so the pieces join back exactly. */
export function chunkWords(text: string): string[] {
  const words = text.split(/(?<=\s)(?=\S)/);
  const rng = createRng(hashString(text));
  const chunks: string[] = [];
  for (let i = 0; i < words.length; ) {
    const size = rng.int(2, 6);
    chunks.push(words.slice(i, i + size).join(""));
    i += size;
  }
  return chunks;
}

export function createOfflineTextProvider(): TextProvider {
  return {
    name: "offline",
    async complete(request: TextRequest): Promise<string> {
      request.signal?.throwIfAborted();
      return narrate(request.messages);
    },
    async *stream(request: TextRequest): AsyncIterable<string> {
      request.signal?.throwIfAborted();
      for (const chunk of chunkWords(narrate(request.messages))) {
        // Yield to the event loop between pieces, as a network stream would.
        await new Promise<void>((resolve) => setImmediate(resolve));
        request.signal?.throwIfAborted();
        yield chunk;
      }
    },
  };
}
