// "Read aloud" on a story's narrator messages: the button's states as the narration is made and played, the
// speed choice, a failure's reason, the price of paid speech, nothing when the server has narration off, and
// "Read new turns aloud" narrating a finished turn on its own (waiting paused when the browser refuses to play),
// and, with the offline voice, reading a streamed turn sentence by sentence while it is written.
import type { ChatMessage } from "@storyverse/contract/chat";
import type { MessageSpeech, VoicesResponse } from "@storyverse/contract/voice";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { resetNarrationForTests } from "../../../shared/voice/narration-player";
import { streamed } from "../../../test/event-stream";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { createTestQueryClient, Providers, SIGNED_IN } from "../../../test/render-app";
import { makeMessage, makeStory, NoShareDialog } from "../../../test/story-fixtures";
import { openStoryKey } from "../open-story-query";
import { StoryInterface } from "./story-interface";

const story = makeStory({ id: "22222222-2222-4222-8222-222222222222", title: "Neon Nights" });
const NARRATOR_ID = "33333333-3333-4333-8333-333333333333";
const ANSWER_ID = "44444444-4444-4444-8444-444444444444";
const SPEECH_PATH = `/api/stories/${story.id}/messages/${NARRATOR_ID}/speech`;

const VOICES: VoicesResponse = {
  success: true,
  provider: "offline",
  default_voice: "amber",
  price_per_unit: 0,
  voices: [
    { id: "amber", name: "Amber", language: "en-US", sample_url: "/api/voices/amber/sample" },
    { id: "slate", name: "Slate", language: "en-GB", sample_url: "/api/voices/slate/sample" },
  ],
};

const SETTINGS = {
  success: true,
  output_length: "medium",
  temperature: 0.9,
  text_model: null,
  authors_note_depth: 1,
  art_style: "",
  aspect_ratio: "4:3",
  input_mode: "story",
  narrator_voice: null,
  read_aloud: false,
  persona_id: null,
  teller: "narrator",
  character_ids: [],
  effective_text_model: "gpt-4o-mini",
  max_tokens: 900,
};

function speech(messageId: string, changes: Partial<MessageSpeech>): MessageSpeech {
  return {
    success: true,
    message_id: messageId,
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

const completed = (messageId: string) =>
  speech(messageId, { status: "completed", audio_url: "/media/speech.wav?sig=1", duration_seconds: 4 });

function serve({
  voices = VOICES,
  readAloud = false,
  speak,
  chat,
  messages = () => [makeMessage({ id: NARRATOR_ID, content: "The rain glows neon.", mode: "chat" })],
  goneSpeakers = [],
}: {
  voices?: VoicesResponse;
  readAloud?: boolean;
  speak?: (call: FetchCall) => Response;
  chat?: (call: FetchCall) => Response;
  messages?: () => ChatMessage[];
  /** Card ids the story no longer has: live reading in their voice is refused, as the server does. */
  goneSpeakers?: string[];
}) {
  return mockFetch((call) => {
    const { path, method } = call;
    if (path === "/api/voices") return json(voices);
    if (path.endsWith("/speech") && speak) return speak(call);
    if (path === `/api/stories/${story.id}/speech/live` && method === "POST") {
      const speaker = (call.body as { speaker_id?: string }).speaker_id;
      if (speaker && goneSpeakers.includes(speaker)) {
        return json({ detail: `speaker_id: ${speaker} is not one of this story's cards` }, 400);
      }
      return new Response(new Uint8Array([82, 73, 70, 70]), { headers: { "Content-Type": "audio/wav" } });
    }
    if (path === `/api/stories/${story.id}/settings`) return json({ ...SETTINGS, read_aloud: readAloud });
    if (path === `/api/stories/${story.id}/messages?limit=30`)
      return json({ success: true, messages: messages() });
    if (path === `/api/stories/${story.id}/chat` && method === "POST" && chat) return chat(call);
    if (path === `/api/stories/${story.id}/chat` && method === "POST") {
      return json({
        success: true,
        quota_exceeded: false,
        story_text: "A door opens in the rain.",
        message_id: ANSWER_ID,
        media_generation: { status: "none", type: null },
        quota_info: { remaining: 14, unlimited: false, cost: 1, charged: 1 },
      });
    }
    if (path === `/api/stories/${story.id}/redo`) return json({ success: true, redoable: 0 });
    if (path === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
    return json({ detail: `unexpected ${method} ${path}` }, 404);
  });
}

function renderStory() {
  const client = createTestQueryClient();
  client.setQueryData(openStoryKey(story.id), story);
  window.history.replaceState(null, "", `/stories/${story.id}`);
  return render(
    <Providers auth={SIGNED_IN} client={client}>
      <QuotaPromptProvider>
        <StoryInterface ShareDialog={NoShareDialog} />
      </QuotaPromptProvider>
    </Providers>,
  );
}

let played: HTMLMediaElement[] = [];
function playing(this: HTMLMediaElement) {
  played.push(this);
  return Promise.resolve();
}
const play = vi.fn(playing);
const pause = vi.fn();

beforeEach(() => {
  played = [];
  // A test may have made the browser refuse to play: each starts with one that plays.
  play.mockReset();
  play.mockImplementation(playing);
  pause.mockClear();
  vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(play);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(pause);
});

afterEach(() => {
  resetNarrationForTests();
  localStorage.clear();
  vi.restoreAllMocks();
});

/** Each spoken sentence's clip becomes the same object URL (jsdom has none). */
const stubSentenceUrls = () =>
  vi.stubGlobal(
    "URL",
    Object.assign(URL, { createObjectURL: vi.fn(() => "blob:sentence"), revokeObjectURL: vi.fn() }),
  );

describe("Read aloud on a narrator message", () => {
  it("prepares the narration, plays it, pauses and resumes, at the speed chosen", async () => {
    let looks = 0;
    const calls = serve({
      speak: ({ method }) =>
        method === "POST"
          ? json(speech(NARRATOR_ID, {}), 202)
          : json(++looks < 2 ? speech(NARRATOR_ID, {}) : completed(NARRATOR_ID)),
    });
    renderStory();
    fireEvent.click(await screen.findByRole("button", { name: "Read aloud" }));

    const preparing = await screen.findByRole("button", { name: "Preparing narration" });
    expect((preparing as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByLabelText("Narration speed")).toBeNull();

    fireEvent.click(await screen.findByRole("button", { name: "Pause narration" }, { timeout: 4000 }));
    expect(calls.filter((c) => c.path === SPEECH_PATH).map((c) => c.method)).toEqual(["POST", "GET", "GET"]);
    expect(played).toHaveLength(1);
    expect(played[0]?.src).toContain("/media/speech.wav?sig=1");
    expect(pause).toHaveBeenCalled();

    const resume = await screen.findByRole("button", { name: "Resume narration" });
    const speed = screen.getByLabelText("Narration speed") as HTMLSelectElement;
    expect([...speed.options].map((o) => o.textContent)).toEqual(["0.75×", "1×", "1.25×", "1.5×", "2×"]);
    fireEvent.change(speed, { target: { value: "1.5" } });
    expect(played[0]?.playbackRate).toBe(1.5);
    expect(localStorage.getItem("speechRate")).toBe("1.5");

    fireEvent.click(resume);
    expect(await screen.findByRole("button", { name: "Pause narration" })).toBeTruthy();
    expect(play).toHaveBeenCalledTimes(2);
  }, 10_000);

  it("shows why a narration failed, and offers Read aloud again", async () => {
    serve({
      speak: () => json(speech(NARRATOR_ID, { status: "failed", error: "The voice could not be reached." })),
    });
    renderStory();
    fireEvent.click(await screen.findByRole("button", { name: "Read aloud" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The voice could not be reached.");
    expect(screen.getByRole("button", { name: "Read aloud" })).toBeTruthy();
    expect(play).not.toHaveBeenCalled();
  });

  it("says the server's reason when it refuses (too many narrations at once)", async () => {
    serve({
      speak: () => json({ detail: "You already have narrations being made. Please wait." }, 429),
    });
    renderStory();
    fireEvent.click(await screen.findByRole("button", { name: "Read aloud" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "You already have narrations being made. Please wait.",
    );
  });

  it("tells the price of paid speech before the first reading", async () => {
    serve({ voices: { ...VOICES, provider: "openai", price_per_unit: 0.5 } });
    renderStory();
    const button = await screen.findByRole("button", { name: "Read aloud" });
    expect(button.getAttribute("title")).toBe("Read aloud (0.5 credits)");
  });

  it("shows no voice control when the server has narration off", async () => {
    serve({ voices: { ...VOICES, provider: "none", default_voice: null, voices: [] } });
    renderStory();
    expect(await screen.findByText("The rain glows neon.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Edit" })).toBeTruthy();
    await waitFor(() => expect(fetch).toHaveBeenCalledWith("/api/voices", expect.anything()));
    // The answer has been read (a tick later): still no control.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole("button", { name: "Read aloud" })).toBeNull();
  });
});

describe("Read new turns aloud", () => {
  it("narrates a finished turn on its own, and waits paused when the browser will not play yet", async () => {
    play.mockImplementation(() => Promise.reject(new DOMException("No gesture", "NotAllowedError")));
    const calls = serve({ readAloud: true, speak: ({ path }) => json(completed(path.split("/")[5] ?? "")) });
    renderStory();
    await screen.findByRole("button", { name: "Read aloud" });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Knock" } });
    fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });

    expect(await screen.findByText("A door opens in the rain.")).toBeTruthy();
    expect(await screen.findByRole("button", { name: "Resume narration" })).toBeTruthy();
    const narrated = calls.filter((c) => c.path.endsWith("/speech")).map((c) => c.path);
    expect(narrated).toEqual([`/api/stories/${story.id}/messages/${ANSWER_ID}/speech`]);

    play.mockImplementation(() => Promise.resolve());
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Resume narration" })));
    expect(screen.getByRole("button", { name: "Pause narration" })).toBeTruthy();
  });

  it("leaves a finished turn quiet when the setting is off", async () => {
    const calls = serve({ speak: ({ path }) => json(completed(path.split("/")[5] ?? "")) });
    renderStory();
    await screen.findByRole("button", { name: "Read aloud" });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Knock" } });
    fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });
    expect(await screen.findByText("A door opens in the rain.")).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Read aloud" })).toHaveLength(2);
    expect(calls.filter((c) => c.path.endsWith("/speech"))).toEqual([]);
  });

  it("reads a streamed turn sentence by sentence while it is written (offline voice), not again when it ends", async () => {
    stubSentenceUrls();
    const turn = streamed();
    let listed = [makeMessage({ id: NARRATOR_ID, content: "The rain glows neon.", mode: "chat" })];
    const calls = serve({ readAloud: true, chat: turn.handler, messages: () => listed });
    const spoken = () =>
      calls.filter((c) => c.path.endsWith("/speech/live")).map((c) => (c.body as { text: string }).text);
    renderStory();
    await screen.findByRole("button", { name: "Read aloud" });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Knock" } });
    fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });
    const stream = await turn.stream();

    await act(async () => stream.send("delta", { text: "A door opens. " }));
    // Complete on screen, but whether the sentence ends there is known with the next word.
    expect(spoken()).toEqual([]);
    await act(async () => stream.send("delta", { text: 'Rain "Come in," says' }));
    await waitFor(() => expect(spoken()).toEqual(["A door opens."]));
    await waitFor(() => expect(play).toHaveBeenCalled());
    expect(played[0]?.src).toBe("blob:sentence");

    await act(async () => stream.send("delta", { text: " a voice." }));
    listed = [
      ...listed,
      makeMessage({ id: "55555555-5555-4555-8555-555555555555", role: "user", content: "Knock" }),
      makeMessage({ id: ANSWER_ID, content: 'A door opens. Rain "Come in," says a voice.', mode: "chat" }),
    ];
    await act(async () =>
      stream.send("done", {
        success: true,
        quota_exceeded: false,
        story_text: 'A door opens. Rain "Come in," says a voice.',
        message_id: ANSWER_ID,
        media_generation: { status: "none", type: null },
        quota_info: { remaining: 14, unlimited: false, cost: 1, charged: 1 },
      }),
    );
    // The rest is read when the turn ends; the finished message is not narrated a second time.
    await waitFor(() => expect(spoken()).toEqual(["A door opens.", 'Rain "Come in," says a voice.']));
    expect(calls.filter((c) => c.path.endsWith("/speech"))).toEqual([]);
    // The message's own control follows the reading.
    expect(await screen.findByRole("button", { name: "Pause narration" })).toBeTruthy();
  });

  it("reads a group scene's streamed turn in its speaker's voice, named before the first word", async () => {
    stubSentenceUrls();
    const turn = streamed();
    const listed = [makeMessage({ id: NARRATOR_ID, content: "The inn is loud.", mode: "chat" })];
    const calls = serve({ readAloud: true, chat: turn.handler, messages: () => listed });
    const said = () =>
      calls
        .filter((c) => c.path.endsWith("/speech/live"))
        .map((c) => c.body as { text: string; speaker_id?: string });
    renderStory();
    await screen.findByRole("button", { name: "Read aloud" });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Odo, a song!" } });
    fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });
    const stream = await turn.stream();
    const odo = "66666666-6666-4666-8666-666666666666";
    await act(async () => stream.send("speaker", { card_id: odo, name: "Odo" }));
    await act(async () => stream.send("delta", { text: "I clear my throat. Then I" }));
    await waitFor(() => expect(said()).toEqual([{ text: "I clear my throat.", speaker_id: odo }]));
  });

  it("reads on in the story's voices when the speaker's card is gone", async () => {
    stubSentenceUrls();
    const gone = "77777777-7777-4777-8777-777777777777";
    const turn = streamed();
    const listed = [makeMessage({ id: NARRATOR_ID, content: "The inn is loud.", mode: "chat" })];
    const calls = serve({
      readAloud: true,
      chat: turn.handler,
      messages: () => listed,
      goneSpeakers: [gone],
    });
    const said = () =>
      calls
        .filter((c) => c.path.endsWith("/speech/live"))
        .map((c) => c.body as { text: string; speaker_id?: string });
    renderStory();
    await screen.findByRole("button", { name: "Read aloud" });
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Sing!" } });
    fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });
    const stream = await turn.stream();
    await act(async () => stream.send("speaker", { card_id: gone, name: "Odo" }));
    await act(async () => stream.send("delta", { text: "I sing. I stop. Then" }));
    // Refused once in that voice, the sentence is read again in the story's, and so is the next.
    await waitFor(() =>
      expect(said()).toEqual([
        { text: "I sing.", speaker_id: gone },
        { text: "I sing." },
        { text: "I stop." },
      ]),
    );
    await waitFor(() => expect(play).toHaveBeenCalled());
  });
});
