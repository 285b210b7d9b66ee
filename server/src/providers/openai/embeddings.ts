// Text to vectors through `/embeddings` of OpenAI or any compatible server (Ollama, vLLM, llama.cpp server),
// for recall by meaning (decision 0113).
import { z } from "zod";
import { malformedError, parseAnswer } from "../http";
import type { EmbeddingsProvider } from "../types";
import { callOpenAI, createOpenAIClient, type OpenAISettings } from "./client";

const embeddingsSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()).min(1) })),
});

export function createOpenAIEmbeddingsProvider(settings: OpenAISettings): EmbeddingsProvider {
  const client = createOpenAIClient(settings);
  return {
    name: settings.vendor,
    model: settings.model,

    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const answer = await callOpenAI(settings, signal, (inner) =>
        // Floats, not the SDK's default base64: self-hosted servers answer only floats.
        client.embeddings.create(
          { model: settings.model, input: texts, encoding_format: "float" },
          { signal: inner },
        ),
      );
      const { data } = parseAnswer(embeddingsSchema, answer, settings, "embeddings");
      const vectors: number[][] = [];
      for (const item of data) vectors[item.index] = item.embedding;
      const length = vectors[0]?.length;
      if (data.length !== texts.length || texts.some((_, index) => vectors[index]?.length !== length)) {
        throw malformedError(
          settings,
          `embeddings: ${data.length} vectors of mixed lengths for ${texts.length} texts`,
        );
      }
      return vectors;
    },
  };
}
