import type { ChatMessage } from "@storyverse/contract/chat";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { streamed } from "../../../test/event-stream";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { createTestQueryClient, Providers, SIGNED_IN } from "../../../test/render-app";
import {
  makeCard,
  makeGenerationSettings,
  makeMessage,
  makeStory,
  NoShareDialog,
} from "../../../test/story-fixtures";
import { storyMessagesKey } from "../api/story-messages";
import { readStoryMediaState, saveStoryMediaState } from "../media-states";
import { openStoryKey } from "../open-story-query";
import { StoryInterface } from "./story-interface";
import { narratorContext } from "./test-context";

const story = makeStory({
  id: "22222222-2222-4222-8222-222222222222",
  title: "Neon Nights",
  context: "Rain",
});
const ANSWER_ID = "33333333-3333-4333-8333-333333333333";
const quota = { remaining: 13.5, unlimited: false, cost: 1.5, charged: 1.5 };
const config = {
  capabilities: ["accounts", "text", "image", "video"],
  providers: { text: "offline", image: "offline", video: "offline", transcription: null },
  offline_providers: true,
};

interface Server {
  /** The conversation as the server lists it (a function: as it is at the time it is read). */
  messages?: ChatMessage[] | (() => ChatMessage[]);
  chat?: (call: FetchCall) => Response | Promise<Response>;
  retry?: (call: FetchCall) => Response | Promise<Response>;
  continueStory?: (call: FetchCall) => Response | Promise<Response>;
  undo?: () => Response | Promise<Response>;
  redo?: () => Response;
  /** How many undone exchanges the server keeps for Redo when the story opens (GET /redo). */
  redoable?: number;
  status?: (count: number) => Response;
  /** Any other call the test answers (undefined: not this one). */
  other?: (call: FetchCall) => Response | Promise<Response> | undefined;
}

function serve({
  messages = [],
  chat,
  retry,
  continueStory,
  undo,
  redo,
  redoable = 0,
  status,
  other,
}: Server = {}) {
  let statusLooks = 0;
  return mockFetch((call) => {
    const { path, method } = call;
    const answered = other?.(call);
    if (answered) return answered;
    if (path === "/api/config") return json(config);
    if (path === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
    if (path === `/api/stories/${story.id}/messages?limit=30`) {
      return json({ success: true, messages: typeof messages === "function" ? messages() : messages });
    }
    if (path === `/api/stories/${story.id}/chat` && method === "POST" && chat) return chat(call);
    if (path.endsWith("/retry") && method === "POST" && retry) return retry(call);
    if (path === `/api/stories/${story.id}/continue` && method === "POST" && continueStory) {
      return continueStory(call);
    }
    if (path === `/api/stories/${story.id}/undo` && method === "POST" && undo) return undo();
    if (path === `/api/stories/${story.id}/redo` && method === "POST" && redo) return redo();
    if (path === `/api/stories/${story.id}/redo` && method === "GET")
      return json({ success: true, redoable });
    if (path.startsWith(`/api/stories/${story.id}/media-status/`) && status) return status(++statusLooks);
    if (path === "/api/stories") return json({ success: true, stories: [story] });
    if (path === `/api/stories/${story.id}` && method === "GET") return json({ success: true, story });
    if (path === "/api/user/verify") {
      return json({
        valid: true,
        user_id: SIGNED_IN.user?.id,
        email: SIGNED_IN.user?.email,
        username: SIGNED_IN.user?.username,
        email_verified: true,
        credits_remaining: 15,
        created_at: "2025-01-01T00:00:00.000Z",
      });
    }
    return json({ detail: `unexpected ${method} ${path}` }, 404);
  });
}

/** The story as the list opens it: its query already holds it (open-story-query.ts). */
function renderStory(client = createTestQueryClient()) {
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

const pending = () =>
  json({
    message_id: ANSWER_ID,
    status: "pending",
    media_generation_completed: false,
    media_generation_failed: false,
    media_generation_error: null,
    image_url: null,
    video_url: null,
  });

const started = () =>
  json({
    success: true,
    quota_exceeded: false,
    story_text: "The rain **glows** neon.",
    message_id: ANSWER_ID,
    media_generation: { status: "started", type: "image" },
    quota_info: quota,
  });

/** What the conversation shows (the message box aside). */
const conversationText = () =>
  screen.getByRole("region", { name: "Chat", hidden: true }).querySelector('ol[aria-label="Messages"]')
    ?.textContent ?? "";

function send(text: string) {
  fireEvent.change(screen.getByLabelText("Message"), { target: { value: text } });
  fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });
}

describe("the story interface", () => {
  it("shows the story, the empty state, the empty canvas and the offline note", async () => {
    serve();
    renderStory();
    expect(screen.getByRole("heading", { level: 1, name: "Neon Nights" })).toBeTruthy();
    expect(screen.getByText("Rain")).toBeTruthy();
    expect(await screen.findByText("Start Your Adventure")).toBeTruthy();
    expect(screen.getByText("Type a message below to begin your story!")).toBeTruthy();
    expect(screen.getByText("No Media Yet")).toBeTruthy();
    expect(screen.getByText("Start your story to see the generated scene here")).toBeTruthy();
    expect(await screen.findByText("Offline AI")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Story Settings" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Close story" })).toBeTruthy();
  });

  it("sends a turn: the user's words at once, the spinner, the answer, then the picture by polling", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: (response: Response) => void = () => {};
    const calls = serve({
      chat: () => new Promise<Response>((resolve) => (answer = resolve)),
      status: (n) =>
        n < 2
          ? pending()
          : json({
              message_id: ANSWER_ID,
              status: "completed",
              media_generation_completed: true,
              media_generation_failed: false,
              media_generation_error: null,
              image_url: "/media/scene.png?sig=1",
              video_url: null,
            }),
    });
    renderStory();
    await screen.findByText("Start Your Adventure");
    send("Follow the lights");

    expect(await screen.findByText("Follow the lights")).toBeTruthy();
    expect(screen.getByText("Generating story and image...")).toBeTruthy();
    const request = calls.find((c) => c.method === "POST");
    expect(request?.body).toEqual({
      prompt: "Follow the lights",
      generate_video: false,
      chat_mode: "image",
      // The composer's Do / Say / Story (the story's default, Story, until the player picks another).
      input_mode: "story",
      batchSize: 1,
    });

    await act(async () => answer(started()));
    expect(await screen.findByText("glows")).toBeTruthy();
    expect(screen.queryByText("Generating story and image...")).toBeNull();
    expect(screen.getByText("Painting the scene…")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled).toBe(true);

    // First look after 2 s (still pending), the next 10 s later (done).
    await act(async () => vi.advanceTimersByTimeAsync(2_000));
    expect(calls.filter((c) => c.path.includes("/media-status/"))).toHaveLength(1);
    await act(async () => vi.advanceTimersByTimeAsync(10_000));
    expect(calls.filter((c) => c.path.includes("/media-status/"))).toHaveLength(2);

    const canvas = screen.getByRole("region", { name: "Scene canvas" });
    await waitFor(() =>
      expect(within(canvas).getByRole("img", { name: "Generated story scene" }).getAttribute("src")).toBe(
        "/media/scene.png?sig=1",
      ),
    );
    expect(screen.getByRole("button", { name: "Generated story image" })).toBeTruthy();
    expect(readStoryMediaState(story.id)).toMatchObject({
      image: "/media/scene.png?sig=1",
      isVideoMode: false,
    });
  });

  it("opens Story Settings, Story Cards and What the narrator sees one at a time in a side panel beside the story", async () => {
    const calls = serve({
      chat: () => started(),
      status: () => pending(),
      other: ({ path }) =>
        path.startsWith(`/api/stories/${story.id}/context`)
          ? json(narratorContext({ memory: 12, cards: 0 }))
          : path === `/api/stories/${story.id}/cards`
            ? json({ success: true, cards: [] })
            : undefined,
    });
    renderStory();
    await screen.findByText("Start Your Adventure");
    fireEvent.click(screen.getByRole("button", { name: "Story Settings" }));
    const settings = await screen.findByRole("dialog", { name: "Story Settings" });
    expect(await within(settings).findByText("12 tokens")).toBeTruthy();
    const contextReads = () =>
      calls.filter((c) => c.path.startsWith(`/api/stories/${story.id}/context`)).length;
    const before = contextReads();

    // The story goes on beside it: a turn is sent and answered, the panel stays, and its counts are read again.
    send("Follow the lights");
    expect(await screen.findByText("glows")).toBeTruthy();
    expect(screen.getByRole("dialog", { name: "Story Settings" })).toBe(settings);
    await waitFor(() => expect(contextReads()).toBeGreaterThan(before));

    // Another panel replaces it rather than stacking on it.
    fireEvent.click(screen.getByRole("button", { name: "Story Cards" }));
    const cards = await screen.findByRole("dialog", { name: "Story Cards" });
    expect(screen.getAllByRole("dialog")).toEqual([cards]);
    fireEvent.click(screen.getByRole("button", { name: "What the narrator sees" }));
    expect(await screen.findByRole("dialog", { name: "What the narrator sees" })).toBeTruthy();
    expect(screen.getAllByRole("dialog")).toHaveLength(1);
  });

  it("a renamed story is renamed everywhere at once: its header, its tab and its settings read one entry", async () => {
    const renamed = { ...story, title: "Neon Dawn", context: "Sunrise" };
    const calls = serve({
      other: ({ path, method }) =>
        path === `/api/stories/${story.id}` && method === "PUT"
          ? json({ success: true, story: renamed })
          : path === `/api/stories/${story.id}/memory`
            ? json({ success: true, memory: "", authors_note: "", summary: "", summary_updated_at: null })
            : path.startsWith(`/api/stories/${story.id}/context`)
              ? json(narratorContext({}))
              : undefined,
    });
    const client = createTestQueryClient();
    renderStory(client);
    await screen.findByText("Start Your Adventure");
    expect(document.title).toBe("Neon Nights · Storyverse");
    const reads = () => calls.filter((c) => c.path.endsWith("/messages?limit=30")).length;
    const readsBefore = reads();
    fireEvent.click(screen.getByRole("button", { name: "Story Settings" }));
    const settings = await screen.findByRole("dialog", { name: "Story Settings" });
    fireEvent.change(await within(settings).findByLabelText("Story Title"), {
      target: { value: "Neon Dawn" },
    });
    fireEvent.change(within(settings).getByLabelText("Story Context"), { target: { value: "Sunrise" } });
    fireEvent.click(within(settings).getByRole("button", { name: "Save Changes" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Neon Dawn" })).toBeTruthy();
    expect(screen.getByText("Sunrise")).toBeTruthy();
    expect(document.title).toBe("Neon Dawn · Storyverse");
    expect(client.getQueryData(openStoryKey(story.id))).toEqual(renamed);
    // The story was not opened again to show it: the answer to the change is what every part shows.
    expect(reads()).toBe(readsBefore);
    fireEvent.click(screen.getByRole("button", { name: "Story Settings" }));
    const reopened = await screen.findByRole("dialog", { name: "Story Settings" });
    expect(((await within(reopened).findByLabelText("Story Title")) as HTMLInputElement).value).toBe(
      "Neon Dawn",
    );
  });

  it("removes the user's message and shows the server's message when the send fails", async () => {
    serve({ chat: () => json({ detail: "The narrator could not answer. Please try again." }, 502) });
    renderStory();
    await screen.findByText("Start Your Adventure");
    send("Hello?");
    expect(await screen.findByText("The narrator could not answer. Please try again.")).toBeTruthy();
    expect(conversationText()).not.toContain("Hello?");
    expect((screen.getByLabelText("Message") as HTMLTextAreaElement).value).toBe("Hello?");
  });

  it("opens the out-of-credits prompt and removes the user's message when credits run out", async () => {
    serve({
      chat: () =>
        json(
          {
            detail: "Insufficient credits: this needs 1.5 and you have 0.5",
            quota_exceeded: true,
            quota_info: { remaining: 0.5, unlimited: false, cost: 1.5, charged: 0 },
          },
          402,
        ),
    });
    renderStory();
    await screen.findByText("Start Your Adventure");
    send("One more scene");
    // Some credits are left, just not enough: the prompt says so instead of "you've reached your limit".
    const dialog = await screen.findByRole("dialog", { name: "Not Enough Credits" });
    expect(dialog.textContent).toContain("This costs 1.5 credits and you have 0.5 credits.");
    expect(conversationText()).not.toContain("One more scene");
  });

  it("says 'Media generation failed. Please try again.' when the media fail", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serve({
      chat: started,
      status: () =>
        json({
          message_id: ANSWER_ID,
          status: "failed",
          media_generation_completed: false,
          media_generation_failed: true,
          media_generation_error: "provider down",
          image_url: null,
          video_url: null,
        }),
    });
    renderStory();
    await screen.findByText("Start Your Adventure");
    send("Go");
    await screen.findByText("glows");
    await act(async () => vi.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByText("Media generation failed. Please try again.")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Again" } });
    expect((screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("says 'Media generation timed out. Please try again.' after 60 looks", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = serve({ chat: started, status: pending });
    renderStory();
    await screen.findByText("Start Your Adventure");
    send("Go");
    await screen.findByText("glows");
    await act(async () => vi.advanceTimersByTimeAsync(2_000 + 59 * 10_000));
    expect(await screen.findByText("Media generation timed out. Please try again.")).toBeTruthy();
    expect(calls.filter((c) => c.path.includes("/media-status/"))).toHaveLength(60);
  });

  it("says 'Failed to check media status.' when the media's status can no longer be read", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = serve({ chat: started, status: () => json({ detail: "Message not found" }, 404) });
    renderStory();
    await screen.findByText("Start Your Adventure");
    send("Go");
    await screen.findByText("glows");
    await act(async () => vi.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByText("Failed to check media status.")).toBeTruthy();
    expect(screen.queryByText("Painting the scene…")).toBeNull();
    // The looks stop: asking again would get the same answer.
    await act(async () => vi.advanceTimersByTimeAsync(30_000));
    expect(calls.filter((c) => c.path.includes("/media-status/"))).toHaveLength(1);
    // And a new turn may be sent.
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Again" } });
    expect((screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("restores the story's stored canvas at once, then follows the newest media of its messages", async () => {
    saveStoryMediaState(story.id, {
      image: "/media/old.png",
      video: null,
      isVideoMode: false,
      lastUpdated: "2026-01-01T00:00:00Z",
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockFetch(async ({ path }) => {
      if (path === `/api/stories/${story.id}/messages?limit=30`) {
        await gate;
        return json({
          success: true,
          messages: [
            makeMessage({ id: "a", timestamp: "2026-01-01T00:00:00Z", image_url: "/media/a.png" }),
            makeMessage({
              id: "b",
              timestamp: "2026-01-02T00:00:00Z",
              image_url: "/media/b.png",
              video_url: "/media/b.mp4",
              mode: "video",
            }),
          ],
        });
      }
      if (path === "/api/config") return json(config);
      return json({ remaining: 15, unlimited: false });
    });
    renderStory();
    const canvas = screen.getByRole("region", { name: "Scene canvas" });
    expect(within(canvas).getByRole("img", { name: "Generated story scene" }).getAttribute("src")).toBe(
      "/media/old.png",
    );
    release();
    await waitFor(() => expect(canvas.querySelector("video")?.getAttribute("src")).toBe("/media/b.mp4"));
    expect(canvas.querySelector("video")?.autoplay).toBe(true);
    expect(canvas.querySelector("video")?.loop).toBe(true);
    expect(canvas.querySelector("video")?.muted).toBe(true);
    expect(canvas.querySelector("video")?.controls).toBe(true);
    // A video that cannot play falls back to its image.
    fireEvent.error(canvas.querySelector("video") as HTMLVideoElement);
    expect(within(canvas).getByRole("img", { name: "Generated story scene" }).getAttribute("src")).toBe(
      "/media/b.png",
    );
    expect(readStoryMediaState(story.id)).toMatchObject({ video: "/media/b.mp4", isVideoMode: true });
  });

  it("toggles a picture as a reference (yellow) and sends it with the next image turn", async () => {
    const calls = serve({
      messages: [makeMessage({ id: "pic", image_url: "/media/pic.png", media_status: "completed" })],
      chat: () => json({ detail: "stop here" }, 500),
    });
    renderStory();
    const toggle = await screen.findByRole("button", { name: "Select as reference" });
    fireEvent.click(toggle);
    expect(screen.getByRole("button", { name: "Selected as reference" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    expect(screen.getByText("1 reference image")).toBeTruthy();
    send("Keep the same hero");
    await screen.findByText("stop here");
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      inputImages: [{ id: "story-pic", url: "/media/pic.png", messageId: "pic" }],
    });
  });

  it("says a picture or clip was deleted from the Gallery instead of showing nothing", async () => {
    serve({
      messages: [
        makeMessage({ id: "pic", content: "The tower glows.", media_status: "completed" }),
        makeMessage({ id: "clip", content: "The river turns.", mode: "video", media_status: "completed" }),
        makeMessage({ id: "words", content: "Only words.", mode: "chat", media_status: "none" }),
      ],
    });
    renderStory();
    expect(await screen.findByText("This picture was deleted from the Gallery.")).toBeTruthy();
    expect(screen.getByText("This clip was deleted from the Gallery.")).toBeTruthy();
    expect(screen.getByText("Only words.")).toBeTruthy();
    expect(screen.getAllByText(/was deleted from the Gallery/)).toHaveLength(2);
  });

  it("hides media that cannot load", async () => {
    serve({
      messages: [makeMessage({ id: "pic", image_url: "/media/gone.png", media_status: "completed" })],
    });
    renderStory();
    const picture = await screen.findByRole("button", { name: "Generated story image" });
    fireEvent.error(picture.querySelector("img") as HTMLImageElement);
    expect(screen.queryByRole("button", { name: "Generated story image" })).toBeNull();
  });
});

describe("a story opened by its address (/stories/{id}: a reload, a bookmark, a link)", () => {
  function renderAt(path: string) {
    window.history.replaceState(null, "", path);
    return render(
      <Providers auth={SIGNED_IN}>
        <QuotaPromptProvider>
          <StoryInterface ShareDialog={NoShareDialog} />
        </QuotaPromptProvider>
      </Providers>,
    );
  }

  it("checks the session, reads the messages, puts the newest media on the canvas, then shows the story", async () => {
    const calls = serve({
      messages: [
        makeMessage({ id: "old", image_url: "/media/old.png", timestamp: "2026-03-01T10:00:00.000Z" }),
        makeMessage({ id: "new", image_url: "/media/new.png", timestamp: "2026-03-04T10:00:00.000Z" }),
      ],
    });
    renderAt(`/stories/${story.id}`);
    expect(await screen.findByRole("heading", { level: 1, name: "Neon Nights" })).toBeTruthy();
    const scene = within(screen.getByRole("region", { name: "Scene canvas" })).getByRole("img", {
      name: "Generated story scene",
    });
    expect(scene.getAttribute("src")).toBe("/media/new.png");
    expect(readStoryMediaState(story.id)).toMatchObject({ image: "/media/new.png" });
    const paths = calls.map((c) => c.path);
    expect(paths.indexOf("/api/user/verify")).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf("/api/user/verify")).toBeLessThan(
      paths.indexOf(`/api/stories/${story.id}/messages?limit=30`),
    );
  });

  it("says the story was not found when the address names a story this account does not have", async () => {
    serve();
    renderAt("/stories/99999999-9999-4999-8999-999999999999");
    expect(await screen.findByRole("heading", { level: 1, name: "Story not found" })).toBeTruthy();
    expect(screen.getByText("It may have been deleted, or it belongs to another account.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Your Stories" })).toBeTruthy();
  });

  it("says why when the story cannot be opened", async () => {
    mockFetch(({ path }) =>
      path === "/api/user/verify" ? json({ detail: "Service Unavailable" }, 503) : json({ detail: "x" }, 404),
    );
    renderAt(`/stories/${story.id}`);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Failed to open story: Service Unavailable" }),
    ).toBeTruthy();
  });
});

describe("Retry and Continue stream like a turn", () => {
  const QUESTION_ID = "44444444-4444-4444-8444-444444444444";
  const FIRST_ID = "55555555-5555-4555-8555-555555555555";
  const SECOND_ID = "66666666-6666-4666-8666-666666666666";
  const question = makeMessage({ id: QUESTION_ID, role: "user", content: "I knock on the door" });
  const first = makeMessage({ id: FIRST_ID, content: "Nobody answers.", mode: "chat" });
  const doneAnswer = (id: string, text: string) => ({
    success: true,
    quota_exceeded: false,
    story_text: text,
    message_id: id,
    media_generation: { status: "none", type: null },
    quota_info: { remaining: 14.5, unlimited: false, cost: 0.5, charged: 0.5 },
  });

  const stopButton = () => screen.queryByRole("button", { name: "Stop the narrator" });
  /** Retry opens its choices; each one's name starts with its label and ends with its price. */
  const retryWith = (label: string) => {
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    fireEvent.click(screen.getByRole("button", { name: new RegExp(`^${label}`) }));
  };
  const sendButton = () => screen.queryByRole("button", { name: "Send message" });

  it("streams a retry's words in place of the answer, Stop in place of Send, then shows the server's versions", async () => {
    const call = streamed();
    let listed: ChatMessage[] = [question, first];
    const calls = serve({ messages: () => listed, retry: call.handler });
    renderStory();
    await screen.findByText("Nobody answers.");
    retryWith("Both");
    const stream = await call.stream();
    const request = calls.find((c) => c.path.endsWith("/retry"));
    expect(request?.path).toBe(`/api/stories/${story.id}/messages/${FIRST_ID}/retry`);
    expect(request?.headers.Accept).toContain("text/event-stream");

    await act(async () => stream.send("delta", { text: "A voice " }));
    await waitFor(() => expect(conversationText()).toContain("A voice"));
    // The new version is written where the old one was.
    expect(conversationText()).not.toContain("Nobody answers.");
    expect(stopButton()).toBeTruthy();
    expect(sendButton()).toBeNull();
    await act(async () => stream.send("delta", { text: "calls back." }));
    await waitFor(() => expect(conversationText()).toContain("A voice calls back."));

    listed = [
      question,
      { ...first, id: SECOND_ID, content: "A voice calls back.", version: 2, version_count: 2 },
    ];
    await act(async () => stream.send("done", doneAnswer(SECOND_ID, "A voice calls back.")));
    expect(await screen.findByText("2 / 2")).toBeTruthy();
    expect(stopButton()).toBeNull();
    expect(sendButton()).toBeTruthy();
  });

  it("Stop keeps a retry's words so far, marked stopped, as the server keeps them", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const call = streamed();
    let listed: ChatMessage[] = [question, first];
    serve({ messages: () => listed, retry: call.handler });
    renderStory();
    await screen.findByText("Nobody answers.");
    retryWith("Both");
    const stream = await call.stream();
    await act(async () => stream.send("delta", { text: "A voice " }));
    const stop = await screen.findByRole("button", { name: "Stop the narrator" });
    listed = [
      question,
      { ...first, id: SECOND_ID, content: "A voice", version: 2, version_count: 2, stopped: true },
    ];
    fireEvent.click(stop);
    expect(await screen.findByText("Stopped: only the text was charged.")).toBeTruthy();
    expect(conversationText()).toContain("A voice");
    expect(conversationText()).not.toContain("Nobody answers.");
    expect(sendButton()).toBeTruthy();
    // Shortly after, the server's list: the stopped words are version 2 of 2.
    await act(async () => vi.advanceTimersByTimeAsync(1_000));
    expect(await screen.findByText("2 / 2")).toBeTruthy();
    expect(screen.getByText("Stopped: only the text was charged.")).toBeTruthy();
    vi.useRealTimers();
  });

  it("before a retry's first word: the answer stays, with the spinner under it", async () => {
    const call = streamed();
    serve({ messages: [question, first], retry: call.handler });
    renderStory();
    await screen.findByText("Nobody answers.");
    retryWith("Both");
    await call.stream();
    // Before the first word: the spinner (worded for the chat answer's mode); Stop comes with the words.
    expect(await screen.findByText(/^Generating/)).toBeTruthy();
    expect(conversationText()).toContain("Nobody answers.");
    expect(stopButton()).toBeNull();
  });

  it("Continue grows the newest answer in place (a stopped sentence goes on), shows its price, and Stop keeps its words", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const call = streamed();
    const stopped = { ...first, content: "Nobody answers, but the door" };
    const calls = serve({ messages: [question, stopped], continueStory: call.handler });
    renderStory();
    await screen.findByText("Nobody answers, but the door");
    const button = screen.getByRole("button", { name: /^Continue/ });
    expect(button.textContent).toBe("Continue 0.5 credits");
    fireEvent.click(button);
    const stream = await call.stream();
    const request = calls.find((c) => c.path.endsWith("/continue"));
    expect(request?.headers.Accept).toContain("text/event-stream");
    // Continue sends no mode and no images: it makes no scene.
    expect(request?.body).toEqual({});
    await act(async () => stream.send("delta", { text: "swings open" }));
    // The same narrator message grows: no second message, the sentence finished in place.
    await waitFor(() =>
      expect(conversationText()).toMatch(/Narrator: Nobody answers, but the door swings open$/),
    );
    expect(screen.getAllByText(/^Narrator:/)).toHaveLength(1);
    fireEvent.click(await screen.findByRole("button", { name: "Stop the narrator" }));
    expect(await screen.findByText("Stopped: only the text was charged.")).toBeTruthy();
    expect(conversationText()).toContain("Nobody answers, but the door swings open");
    expect(sendButton()).toBeTruthy();
    vi.useRealTimers();
  });

  it("Retry offers new words, a new scene or both, each with its price; new words keep the picture", async () => {
    const call = streamed();
    const painted = {
      ...first,
      mode: "image" as const,
      image_url: "/media/scene.png",
      media_status: "completed" as const,
    };
    const calls = serve({ messages: [question, painted], retry: call.handler });
    renderStory();
    await screen.findByText("Nobody answers.");
    const retry = screen.getByRole("button", { name: "Retry" });
    expect(retry.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(retry);
    expect(retry.getAttribute("aria-expanded")).toBe("true");
    const choices = within(screen.getByRole("group", { name: "Retry choices" }));
    expect(choices.getAllByRole("button").map((b) => b.textContent)).toEqual([
      "New words 0.5 credits",
      "New scene 1.5 credits",
      "Both 1.5 credits",
    ]);
    fireEvent.click(choices.getByRole("button", { name: /^New words/ }));
    const stream = await call.stream();
    const request = calls.find((c) => c.path.endsWith("/retry"));
    // New words send no images (they make no scene).
    expect(request?.body).toEqual({ what: "text" });
    await act(async () => stream.send("delta", { text: "A voice calls back." }));
    await waitFor(() => expect(conversationText()).toContain("A voice calls back."));
    // The picture stays while the new words are written.
    expect(document.querySelector('img[src="/media/scene.png"]')).toBeTruthy();
  });

  it("Undo offers Redo, which brings the exchange back; Redo goes once nothing is left to redo", async () => {
    let listed: ChatMessage[] = [question, first];
    const calls = serve({
      messages: () => listed,
      undo: () => {
        listed = [];
        return json({ success: true, removed_message_ids: [QUESTION_ID, FIRST_ID] });
      },
      redo: () => {
        listed = [question, first];
        return json({ success: true, messages: [question, first] });
      },
    });
    renderStory();
    await screen.findByText("Nobody answers.");
    expect(screen.queryByRole("button", { name: "Redo" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    await waitFor(() => expect(screen.queryByText("Nobody answers.")).toBeNull());
    // Everything undone: Redo waits in the empty story.
    fireEvent.click(await screen.findByRole("button", { name: "Redo" }));
    expect(await screen.findByText("Nobody answers.")).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith("/redo") && c.method === "POST")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Redo" })).toBeNull());
  });

  it("offers Redo on opening when the server still keeps an undone exchange (after a reload)", async () => {
    let listed: ChatMessage[] = [];
    serve({
      messages: () => listed,
      redoable: 1,
      redo: () => {
        listed = [question, first];
        return json({ success: true, messages: [question, first] });
      },
    });
    renderStory();
    fireEvent.click(await screen.findByRole("button", { name: "Redo" }));
    expect(await screen.findByText("Nobody answers.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("button", { name: "Redo" })).toBeNull());
  });

  it("a new scene asks for what: media", async () => {
    const calls = serve({
      messages: [question, first],
      retry: () =>
        json({
          ...doneAnswer(SECOND_ID, "Nobody answers."),
          media_generation: { status: "started", type: "image" },
        }),
    });
    renderStory();
    await screen.findByText("Nobody answers.");
    retryWith("New scene");
    await waitFor(() =>
      expect(calls.find((c) => c.path.endsWith("/retry"))?.body).toEqual({ what: "media" }),
    );
  });

  it("a continuation out of credits opens the prompt and leaves the story as it was", async () => {
    const call = streamed();
    serve({ messages: [question, first], continueStory: call.handler });
    renderStory();
    await screen.findByText("Nobody answers.");
    fireEvent.click(screen.getByRole("button", { name: /^Continue/ }));
    const stream = await call.stream();
    await act(async () =>
      stream.send("error", {
        status: 402,
        detail: "Insufficient credits: this needs 1.5 and you have 0.5",
        quota_exceeded: true,
        quota_info: { remaining: 0.5, unlimited: false, cost: 1.5, charged: 0 },
      }),
    );
    const dialog = await screen.findByRole("dialog", { name: "Not Enough Credits" });
    expect(dialog.textContent).toContain("This costs 1.5 credits and you have 0.5 credits.");
    expect(screen.getAllByText(/^Narrator:/)).toHaveLength(1);
    expect(conversationText()).toContain("Nobody answers.");
    expect(stopButton()).toBeNull();
  });

  it("a retry failing mid-stream puts the answer back and shows the server's message", async () => {
    const call = streamed();
    serve({ messages: [question, first], retry: call.handler });
    renderStory();
    await screen.findByText("Nobody answers.");
    retryWith("Both");
    const stream = await call.stream();
    await act(async () => stream.send("delta", { text: "Half a" }));
    await waitFor(() => expect(conversationText()).toContain("Half a"));
    await act(async () =>
      stream.send("error", { status: 502, detail: "The narrator could not answer. Please try again." }),
    );
    expect(await screen.findByText("The narrator could not answer. Please try again.")).toBeTruthy();
    expect(conversationText()).toContain("Nobody answers.");
    expect(conversationText()).not.toContain("Half a");
    expect(stopButton()).toBeNull();
  });

  describe("a change that fails puts the conversation back exactly as it was", () => {
    const painted = { ...first, image_url: "/media/scene.png", media_status: "completed" as const };
    const refused = (detail: string) => json({ detail }, 409);
    /** A call held until the test answers it. */
    function held() {
      let answer: (response: Response) => void = () => {};
      const response = new Promise<Response>((resolve) => {
        answer = resolve;
      });
      return { response, answer: (r: Response) => answer(r) };
    }
    async function opened() {
      const client = createTestQueryClient();
      renderStory(client);
      await screen.findByText("Nobody answers.");
      const before = structuredClone(client.getQueryData(storyMessagesKey(story.id)));
      expect(before).toEqual([question, painted]);
      return { shown: () => client.getQueryData<ChatMessage[]>(storyMessagesKey(story.id)), before };
    }

    it("a turn: the player's words go, the earlier answer and its picture stay as they were", async () => {
      serve({
        messages: [question, painted],
        chat: () => json({ detail: "The narrator could not answer. Please try again." }, 502),
      });
      const { shown, before } = await opened();
      send("I try the window");
      expect(await screen.findByText("The narrator could not answer. Please try again.")).toBeTruthy();
      await waitFor(() => expect(shown()).toEqual(before));
      expect(conversationText()).not.toContain("I try the window");
    });

    it("an edit: the new words show at once, and the old ones come back when it is refused", async () => {
      const call = held();
      serve({
        messages: [question, painted],
        other: ({ path, method }) =>
          path === `/api/stories/${story.id}/messages/${QUESTION_ID}` && method === "PATCH"
            ? call.response
            : undefined,
      });
      const { shown, before } = await opened();
      fireEvent.click(screen.getAllByRole("button", { name: "Edit message" })[0] as HTMLElement);
      fireEvent.change(screen.getByRole("textbox", { name: "Edit message" }), {
        target: { value: "I kick the door" },
      });
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
      await waitFor(() => expect(shown()?.[0]?.content).toBe("I kick the door"));
      call.answer(refused("This message can no longer be edited."));
      expect(await screen.findByText("This message can no longer be edited.")).toBeTruthy();
      await waitFor(() => expect(shown()).toEqual(before));
    });

    it("an undo: the exchange goes at once, and comes back whole when it is refused", async () => {
      const call = held();
      serve({ messages: [question, painted], undo: () => call.response });
      const { shown, before } = await opened();
      fireEvent.click(screen.getByRole("button", { name: "Undo" }));
      await waitFor(() => expect(screen.queryByText("Nobody answers.")).toBeNull());
      expect(shown()).toEqual([]);
      call.answer(refused("Wait for this turn to finish."));
      expect(await screen.findByText("Wait for this turn to finish.")).toBeTruthy();
      await waitFor(() => expect(shown()).toEqual(before));
      expect(conversationText()).toContain("Nobody answers.");
      expect(document.querySelector('img[src="/media/scene.png"]')).toBeTruthy();
      expect(screen.queryByRole("button", { name: "Redo" })).toBeNull();
    });
  });

  it("still works when the server answers a retry with plain JSON (no stream)", async () => {
    let listed: ChatMessage[] = [question, first];
    serve({
      messages: () => listed,
      retry: () => {
        listed = [question, { ...first, id: SECOND_ID, content: "Footsteps.", version: 2, version_count: 2 }];
        return json(doneAnswer(SECOND_ID, "Footsteps."));
      },
    });
    renderStory();
    await screen.findByText("Nobody answers.");
    retryWith("Both");
    expect(await screen.findByText("2 / 2")).toBeTruthy();
    expect(conversationText()).toContain("Footsteps.");
    expect(conversationText()).not.toContain("Nobody answers.");
  });
});

describe("a group scene (decision 0164)", () => {
  const MIRA = makeCard("6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a22", "Mira Voss", "character");
  const ODO = makeCard("6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a33", "Odo Brand", "character");
  const GRETA = makeCard("6f1c9a52-3b0e-4c1e-9d1c-0d7c0e9b1a44", "Greta Lund", "character");
  // What the server keeps: a re-read of the conversation shows what was answered so far.
  let stored: ChatMessage[] = [];
  /** A character's answer as the server stores it and answers it. */
  const spoken = (card: typeof MIRA, id: string, text: string, next?: (typeof MIRA)[]) => {
    const speaker = { card_id: card.id, name: card.name };
    stored = [...stored, makeMessage({ id, content: text, mode: "chat", speaker })];
    return {
      success: true,
      quota_exceeded: false,
      story_text: text,
      message_id: id,
      media_generation: { status: "none", type: null },
      quota_info: { remaining: 14.5, unlimited: false, cost: 0.5, charged: 0.5 },
      speaker,
      ...(next ? { next_speakers: next.map((c) => ({ card_id: c.id, name: c.name })) } : {}),
    };
  };
  const speaking = (...answer: Parameters<typeof spoken>) => json(spoken(...answer));
  const group =
    (order: "natural" | "round_robin" | "all" | "manual", muted: string[] = [], cards = [MIRA, ODO, GRETA]) =>
    (call: FetchCall) => {
      if (call.path === `/api/stories/${story.id}/settings`) {
        return json(
          makeGenerationSettings("group", [MIRA.id, ODO.id, GRETA.id], {
            speaker_order: order,
            muted_ids: muted,
          }),
        );
      }
      if (call.path === `/api/stories/${story.id}/cards`) return json({ success: true, cards });
      return undefined;
    };

  it('"Everyone replies": after the first answer each next speaker is asked in turn, each a paid turn of its own', async () => {
    const ids = ["44444444-4444-4444-8444-444444444401", "44444444-4444-4444-8444-444444444402"];
    stored = [];
    const calls = serve({
      messages: () => stored,
      other: group("all"),
      chat: () => speaking(MIRA, ANSWER_ID, "Mira: the lamp is lit.", [ODO, GRETA]),
      continueStory: (call) => {
        const asked = (call.body as { speaker_id: string }).speaker_id;
        return asked === ODO.id
          ? speaking(ODO, ids[0]!, "Odo: I saw the ship.")
          : speaking(GRETA, ids[1]!, "Greta: we leave at dawn.");
      },
    });
    renderStory();
    const bar = await screen.findByLabelText("Speaks next");
    expect((bar as HTMLSelectElement).value).toBe("");
    await screen.findByText("Start Your Adventure");
    send("Who saw the ship?");
    await waitFor(() => expect(conversationText()).toContain("Greta: we leave at dawn."));
    expect(calls.find((c) => c.path.endsWith("/chat"))?.body).not.toHaveProperty("speaker_id");
    expect(calls.filter((c) => c.path.endsWith("/continue")).map((c) => c.body)).toEqual([
      { speaker_id: ODO.id },
      { speaker_id: GRETA.id },
    ]);
    const text = conversationText();
    expect(text.indexOf("Mira: the lamp")).toBeLessThan(text.indexOf("Odo: I saw"));
    expect(text.indexOf("Odo: I saw")).toBeLessThan(text.indexOf("Greta: we leave"));
  });

  it('"You choose each time": the turn names the chosen character, and a muted one is not offered; "Let … speak" asks without a line', async () => {
    stored = [];
    const calls = serve({
      messages: () => stored,
      other: group("manual", [GRETA.id]),
      chat: () => speaking(ODO, ANSWER_ID, "Odo: aye."),
      continueStory: () => speaking(MIRA, "44444444-4444-4444-8444-444444444403", "Mira: then go."),
    });
    renderStory();
    const picker = (await screen.findByLabelText("Speaks next")) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe(MIRA.id));
    expect([...picker.options].map((o) => o.textContent)).toEqual(["Mira Voss", "Odo Brand"]);
    fireEvent.change(picker, { target: { value: ODO.id } });
    await screen.findByText("Start Your Adventure");
    send("Odo, are you ready?");
    await waitFor(() => expect(conversationText()).toContain("Odo: aye."));
    expect(calls.find((c) => c.path.endsWith("/chat"))?.body).toMatchObject({ speaker_id: ODO.id });

    fireEvent.change(picker, { target: { value: MIRA.id } });
    fireEvent.click(screen.getByRole("button", { name: /^Let Mira Voss speak/ }));
    await waitFor(() => expect(conversationText()).toContain("Mira: then go."));
    expect(calls.filter((c) => c.path.endsWith("/continue")).map((c) => c.body)).toEqual([
      { speaker_id: MIRA.id },
    ]);
  });

  const speakerNames = () => screen.queryAllByTestId("speaker-name").map((name) => name.textContent);

  it("names the speaker over a streaming answer as soon as the stream says who speaks, before the first word", async () => {
    stored = [];
    const portrait = "/api/media/odo-portrait.png";
    const call = streamed();
    serve({
      messages: () => stored,
      other: group("natural", [], [MIRA, makeCard(ODO.id, ODO.name, "character", portrait), GRETA]),
      chat: call.handler,
    });
    renderStory();
    await screen.findByLabelText("Speaks next");
    await screen.findByText("Start Your Adventure");
    send("Odo, what did you see?");
    const stream = await call.stream();
    expect(speakerNames()).toEqual([]);

    await act(async () => stream.send("speaker", { card_id: ODO.id, name: ODO.name }));
    // Before any word: Odo's name and portrait over the answer being written, and Stop is offered.
    await waitFor(() => expect(speakerNames()).toEqual(["Odo Brand"]));
    expect(screen.getByTestId("speaker-portrait").getAttribute("src")).toBe(portrait);
    // One "writing" note, in Odo's message: not a second one under the narrator's feather.
    expect(screen.getAllByText(/^Generating story/)).toHaveLength(1);
    expect(screen.getByRole("button", { name: "Stop the narrator" })).toBeTruthy();

    await act(async () => stream.send("delta", { text: "I saw the ship " }));
    await waitFor(() => expect(conversationText()).toContain("I saw the ship"));
    expect(speakerNames()).toEqual(["Odo Brand"]);
    expect(conversationText()).not.toMatch(/Generating story/);

    await act(async () => stream.send("done", spoken(ODO, ANSWER_ID, "I saw the ship come in.")));
    await waitFor(() => expect(conversationText()).toContain("I saw the ship come in."));
    expect(speakerNames()).toEqual(["Odo Brand"]);
  });

  it("Continue in a group scene: the next character's words come in a message of their own, under their name", async () => {
    stored = [];
    spoken(MIRA, ANSWER_ID, "The lamp is lit.");
    const call = streamed();
    serve({ messages: () => stored, other: group("round_robin"), continueStory: call.handler });
    renderStory();
    await screen.findByText("The lamp is lit.");
    fireEvent.click(screen.getByRole("button", { name: /^Continue/ }));
    const stream = await call.stream();
    await act(async () => stream.send("speaker", { card_id: ODO.id, name: ODO.name }));
    await waitFor(() => expect(speakerNames()).toEqual(["Mira Voss", "Odo Brand"]));
    expect(conversationText()).toContain("The lamp is lit.");
    await act(async () => stream.send("delta", { text: "Then we sail." }));
    await waitFor(() => expect(conversationText()).toContain("Then we sail."));
    // Mira's words stay as they were: Odo's are not added to them.
    expect(conversationText()).not.toMatch(/lit\.\s*Then we sail/);
    expect(speakerNames()).toEqual(["Mira Voss", "Odo Brand"]);
    await act(async () =>
      stream.send("done", spoken(ODO, "44444444-4444-4444-8444-444444444405", "Then we sail.")),
    );
    await waitFor(() => expect(speakerNames()).toEqual(["Mira Voss", "Odo Brand"]));
    expect(screen.getAllByText("Then we sail.")).toHaveLength(1);
  });
});
