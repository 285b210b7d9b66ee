// The OpenAI-compatible /chat/completions endpoint, shared by the OpenAI and ModelArk fakes: request checks,
// whole answers, and server-sent event streams with comment lines the way OpenRouter sends them.
import type { ErrorShape, FakeReply, RecordedRequest } from "./fake-server";

export type ChatState = {
  /** The answer, in the pieces a stream delivers. */
  pieces: string[];
  /** How the next streams misbehave after the first piece. */
  midStream: "none" | "error" | "hang" | "garbage";
};

const roles = new Set(["system", "user", "assistant", "developer", "tool"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The problem with a chat request, as [param, message], or undefined when it is fine. */
function chatProblem(body: unknown): [string, string] | undefined {
  if (!isRecord(body)) return ["body", "We could not parse the JSON body of your request."];
  if (typeof body.model !== "string" || !body.model) return ["model", "you must provide a model parameter"];
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    return ["messages", "Invalid 'messages': empty array. Expected an array with minimum length 1."];
  }
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || !roles.has(String(message.role)) || typeof message.content !== "string") {
      return [`messages[${index}]`, `Invalid value for 'messages[${index}]': expected a role and content.`];
    }
  }
  if (body.max_tokens !== undefined && !(Number.isInteger(body.max_tokens) && Number(body.max_tokens) > 0)) {
    return ["max_tokens", "Invalid 'max_tokens': integer below minimum value."];
  }
  const temperature = body.temperature;
  if (
    temperature !== undefined &&
    !(typeof temperature === "number" && temperature >= 0 && temperature <= 2)
  ) {
    return ["temperature", "Invalid 'temperature': decimal above maximum value. Expected a value <= 2."];
  }
  return undefined;
}

function chunk(model: string, delta: Record<string, string>, finish: string | null): string {
  const body = {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

export function chatReply(request: RecordedRequest, state: ChatState, errorShape: ErrorShape): FakeReply {
  const problem = chatProblem(request.json);
  if (problem) return errorShape(400, "invalid_request", problem[1]);
  const body = request.json as Record<string, unknown>;
  const model = String(body.model);
  if (model.startsWith("missing")) {
    return errorShape(
      404,
      undefined,
      `The model \`${model}\` does not exist or you do not have access to it.`,
    );
  }
  if (body.stream !== true) {
    return {
      kind: "json",
      status: 200,
      body: {
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1_700_000_000,
        model,
        choices: [
          { index: 0, message: { role: "assistant", content: state.pieces.join("") }, finish_reason: "stop" },
        ],
        usage: {
          prompt_tokens: 10,
          completion_tokens: state.pieces.length,
          total_tokens: 10 + state.pieces.length,
        },
      },
    };
  }
  const writes = [": OPENROUTER PROCESSING\n\n", chunk(model, { role: "assistant", content: "" }, null)];
  for (const [index, piece] of state.pieces.entries()) {
    writes.push(chunk(model, { content: piece }, null));
    // A keep-alive comment between pieces: clients must skip it.
    writes.push(": keep-alive\n\n");
    if (index === 0 && state.midStream === "error") {
      writes.push(
        `data: ${JSON.stringify({ error: { message: "Upstream provider error", code: 502 } })}\n\n`,
      );
      return { kind: "sse", writes, gapMs: 5 };
    }
    if (index === 0 && state.midStream === "garbage") {
      writes.push("data: {this is not json\n\n");
      return { kind: "sse", writes, gapMs: 5 };
    }
    if (index === 0 && state.midStream === "hang") {
      writes.push("hang");
      return { kind: "sse", writes, gapMs: 5 };
    }
  }
  writes.push(chunk(model, {}, "stop"), "data: [DONE]\n\n");
  return { kind: "sse", writes, gapMs: 5 };
}
