// Read aloud while the narration is made (decision 0133): the player starts on the first piece (the first
// sentence) as soon as it is listed, plays the pieces in order, each once, and goes on with the stored file
// from where the pieces left off, so nothing is heard twice and nothing is skipped.
import type { MessageSpeech } from "@storyverse/contract/voice";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../test/mock-fetch";
import { narrationSnapshot, resetNarrationForTests, startNarration } from "./narration-player";

const STORY = "22222222-2222-4222-8222-222222222222";
const MESSAGE = "33333333-3333-4333-8333-333333333333";
const SPEECH = `/api/stories/${STORY}/messages/${MESSAGE}/speech`;
const WHOLE = "/media/speech.wav?sig=1";

function speech(changes: Partial<MessageSpeech>): MessageSpeech {
  return {
    success: true,
    message_id: MESSAGE,
    status: "pending",
    audio_url: null,
    duration_seconds: null,
    segments: [],
    error: null,
    cost: 0,
    chunks: [],
    ...changes,
  };
}
const pieces = (...seconds: number[]) => seconds.map((duration_seconds) => ({ duration_seconds }));

/** What was heard, in order: "piece N" for a piece's clip, "whole from S" for the stored file. */
let heard: string[] = [];
/** The clip being played; a test ends it as the audio would. */
let playing: HTMLMediaElement | null = null;
const blobs = new Map<string, Blob>();

beforeEach(() => {
  heard = [];
  playing = null;
  blobs.clear();
  let made = 0;
  // jsdom has no object URLs: each blob gets a name the test can read its piece back from.
  URL.createObjectURL = (blob: Blob) => {
    made += 1;
    const url = `blob:clip-${made}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(async function (this: HTMLMediaElement) {
    const src = this.getAttribute("src") ?? this.src;
    const blob = blobs.get(src);
    heard.push(blob ? await blob.text() : `whole from ${this.currentTime}`);
    playing = this;
  });
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
});

afterEach(() => {
  resetNarrationForTests();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Ends the clip being played (as the browser does at its last sample), once one is playing. */
async function endPlaying(expected: number) {
  await vi.waitFor(() => expect(heard).toHaveLength(expected));
  const clip = playing!;
  playing = null;
  clip.dispatchEvent(new Event("ended"));
}

const wav = (index: number) =>
  new Response(new TextEncoder().encode(`piece ${index}`), { headers: { "Content-Type": "audio/wav" } });

describe("Read aloud while the narration is being made", () => {
  it("starts on the first piece as soon as it is listed, plays each piece once in order, then the file from where they left off", async () => {
    // The server's answers in turn: nothing yet, the first sentence, two pieces, then the stored file.
    const answers = [
      speech({ chunks: pieces(1.5) }),
      speech({ chunks: pieces(1.5, 2.25) }),
      speech({ chunks: pieces(1.5, 2.25) }),
      speech({ status: "completed", audio_url: WHOLE, duration_seconds: 9 }),
    ];
    let looks = 0;
    const calls = mockFetch(({ path, method }) => {
      if (path === SPEECH && method === "POST") return json(speech({}), 202);
      if (path === SPEECH) return json(answers[Math.min(looks++, answers.length - 1)]);
      const piece = /\/chunks\/(\d+)$/.exec(path);
      if (piece) return wav(Number(piece[1]));
      return json({ detail: `unexpected ${method} ${path}` }, 404);
    });
    const started = startNarration(STORY, MESSAGE);

    // The first piece plays while the narration is still pending.
    await vi.waitFor(() => expect(heard).toEqual(["piece 0"]));
    expect(narrationSnapshot().status).toBe("playing");
    expect(looks).toBeLessThan(answers.length);
    await endPlaying(1);
    await vi.waitFor(() => expect(heard).toEqual(["piece 0", "piece 1"]));
    await endPlaying(2);
    // The stored file goes on 1.5 + 2.25 s in: right after the last piece heard.
    await vi.waitFor(() => expect(heard).toEqual(["piece 0", "piece 1", "whole from 3.75"]));
    await started;
    expect(narrationSnapshot().status).toBe("playing");
    // Each piece was fetched once.
    expect(calls.filter((call) => call.path.includes("/chunks/")).map((call) => call.path.slice(-1))).toEqual(
      ["0", "1"],
    );
  });

  it("goes on with the stored file when a piece is gone because the narration was stored meanwhile", async () => {
    let stored = false;
    mockFetch(({ path, method }) => {
      if (path === SPEECH && method === "POST") return json(speech({ chunks: pieces(2) }), 202);
      if (path === SPEECH) {
        return json(
          stored
            ? speech({ status: "completed", audio_url: WHOLE, duration_seconds: 6 })
            : speech({ chunks: pieces(2, 1) }),
        );
      }
      if (path.endsWith("/chunks/0")) return wav(0);
      // The narration is stored: its pieces are no longer kept.
      stored = true;
      return json({ detail: "This piece of the narration is no longer kept" }, 404);
    });
    const started = startNarration(STORY, MESSAGE);
    await vi.waitFor(() => expect(heard).toEqual(["piece 0"]));
    await endPlaying(1);
    await started;
    expect(heard).toEqual(["piece 0", "whole from 2"]);
  });

  it("ends when every piece was heard, without playing the file again", async () => {
    let looks = 0;
    mockFetch(({ path, method }) => {
      if (path === SPEECH && method === "POST") return json(speech({ chunks: pieces(1.25) }), 202);
      if (path === SPEECH) {
        looks += 1;
        return json(speech({ status: "completed", audio_url: WHOLE, duration_seconds: 1.25 }));
      }
      return wav(0);
    });
    const started = startNarration(STORY, MESSAGE);
    await endPlaying(1);
    await started;
    expect(heard).toEqual(["piece 0"]);
    expect(looks).toBeGreaterThan(0);
    expect(narrationSnapshot().status).toBe("idle");
  });

  it("plays a narration already made from its file at once", async () => {
    const calls = mockFetch(() =>
      json(speech({ status: "completed", audio_url: WHOLE, duration_seconds: 4 })),
    );
    await startNarration(STORY, MESSAGE);
    expect(heard).toEqual(["whole from 0"]);
    expect(calls.map((call) => call.method)).toEqual(["POST"]);
  });
});
