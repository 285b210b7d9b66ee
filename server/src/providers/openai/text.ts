// Chat completions, whole and streamed, against any OpenAI-compatible server.
import { z } from "zod";
import { Deadline, malformedError, parseAnswer, sanitizeVendorMessage, timeoutError } from "../http";
import { ProviderError, TEXT_PURPOSES, type TextProvider, type TextRequest } from "../types";
import { callOpenAI, createOpenAIClient, type OpenAISettings, openAIFailure } from "./client";

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1),
});

const modelsSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

const chunkSchema = z.object({
  // Some servers send a last chunk with usage and no choices.
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).nullish() })).nullish(),
});

function chatBody(model: string, request: TextRequest) {
  return {
    model: request.model ?? model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    max_tokens: request.maxTokens,
    temperature: request.temperature,
  };
}

export function createOpenAITextProvider(settings: OpenAISettings): TextProvider {
  const client = createOpenAIClient(settings);
  return {
    name: settings.vendor,
    defaultModel: settings.model,
    // A model reads the instructions of every purpose.
    purposes: TEXT_PURPOSES,

    async listModels(signal) {
      // GET /models answers one list (OpenAI, Ollama, vLLM, llama.cpp, OpenRouter); the SDK's page is read raw.
      const answer = await callOpenAI(settings, signal, (inner) =>
        client.models.list({ signal: inner }).then((page) => ({ data: page.data })),
      );
      return parseAnswer(modelsSchema, answer, settings, "model list").data.map((model) => model.id);
    },

    async complete(request) {
      const answer = await callOpenAI(settings, request.signal, (signal) =>
        client.chat.completions.create(chatBody(settings.model, request), { signal }),
      );
      const message = parseAnswer(completionSchema, answer, settings, "chat completion").choices[0]!.message;
      if (message.content) return message.content;
      if (message.refusal) {
        const reason = sanitizeVendorMessage(message.refusal, settings);
        throw new ProviderError(
          `The AI declined this request: ${reason}`,
          false,
          `${settings.vendor} refusal`,
        );
      }
      throw emptyAnswer(settings);
    },

    async *stream(request) {
      // An idle time-out: a long story may stream for longer than the limit, a silent server may not.
      const deadline = new Deadline(settings.timeoutMs, request.signal);
      try {
        const chunks = await client.chat.completions.create(
          { ...chatBody(settings.model, request), stream: true },
          { signal: deadline.signal },
        );
        let sawChunk = false;
        for await (const chunk of chunks) {
          sawChunk = true;
          const parsed = parseAnswer(chunkSchema, chunk, settings, "chat completion chunk");
          const piece = parsed.choices?.[0]?.delta?.content;
          if (!piece) {
            deadline.refresh();
            continue;
          }
          deadline.pause();
          yield piece;
          deadline.refresh();
        }
        // The SDK ends a stream quietly when it is aborted: find out whether that was us or the caller.
        if (deadline.timedOut) throw timeoutError(settings, "stream");
        request.signal?.throwIfAborted();
        // A body that is not an event stream at all (an HTML error page) parses as zero events.
        if (!sawChunk) throw malformedError(settings, "stream without a single event");
      } catch (error) {
        throw openAIFailure(error, deadline, request.signal, settings);
      } finally {
        deadline.dispose();
      }
    },
  };
}

function emptyAnswer(settings: OpenAISettings): ProviderError {
  return new ProviderError(
    "The AI provider sent an empty answer. Please try again.",
    true,
    `${settings.vendor} chat completion without content`,
  );
}
