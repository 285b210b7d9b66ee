// A streamed narrator turn as the web reads it: heartbeat comments (sent while the narrator is slow to start
// or pauses) are skipped, never read as words, an answer or the end of the stream.
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiStreamRequest } from "./api-client";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("apiStreamRequest", () => {
  it("skips heartbeat comments before the first word and between words", async () => {
    const body = [
      ": heartbeat\n\n",
      ": heartbeat\n\n",
      'event: delta\ndata: {"text":"The door "}\n\n',
      ": heartbeat\n\n",
      'event: delta\ndata: {"text":"opens."}\n\n',
      ": heartbeat\n\n",
      'event: done\ndata: {"story_text":"The door opens."}\n\n',
    ].join("");
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () => new Response(body, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } }),
      ),
    );
    const words: string[] = [];
    const answer = await apiStreamRequest("/api/chat", {
      body: { prompt: "Open the door" },
      schema: { parse: (data: unknown) => data as { story_text: string } },
      signal: new AbortController().signal,
      onText: (text) => words.push(text),
    });
    expect(words).toEqual(["The door ", "opens."]);
    expect(answer).toEqual({ story_text: "The door opens." });
  });
});
