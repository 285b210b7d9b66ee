// A streamed narrator turn as the web reads it: heartbeat comments (sent while the narrator is slow to start
// or pauses) are skipped, never read as words, an answer or the end of the stream; a group scene's `speaker`
// event (decision 0164) says who speaks before the first word.
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

  it("tells who speaks as soon as a group scene's speaker event arrives, and passes over a malformed one", async () => {
    const body = [
      'event: speaker\ndata: {"card_id":"c-1"}\n\n',
      'event: speaker\ndata: {"card_id":"c-2","name":"Odo Brand"}\n\n',
      'event: delta\ndata: {"text":"Aye."}\n\n',
      'event: done\ndata: {"story_text":"Aye."}\n\n',
    ].join("");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(body, { headers: { "Content-Type": "text/event-stream" } })),
    );
    const seen: string[] = [];
    await apiStreamRequest("/api/stories/s/chat", {
      body: { prompt: "Odo?" },
      schema: { parse: (data: unknown) => data },
      signal: new AbortController().signal,
      onText: (text) => seen.push(`words: ${text}`),
      onSpeaker: (speaker) => seen.push(`speaker: ${speaker.card_id} ${speaker.name}`),
    });
    expect(seen).toEqual(["speaker: c-2 Odo Brand", "words: Aye."]);
  });
});
