// A long story in the story view (issue 42, decision 0130): it opens on its newest page; scrolling up reads
// the page before it and keeps the reader's place; a long conversation is windowed (only rows near the viewport
// are in the page); and a streamed word re-renders the streaming message alone, not the rows before it.
import type { ChatMessage } from "@storyverse/contract/chat";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { streamed } from "../../../test/event-stream";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { createTestQueryClient, Providers, SIGNED_IN } from "../../../test/render-app";
import { makeMessage, makeStory, NoShareDialog } from "../../../test/story-fixtures";
import { openStoryKey } from "../open-story-query";
import { StoryInterface } from "./story-interface";

// Each narration's words are drawn by Markdown: counting its renders by their words counts the rows drawn.
const drawn = new Map<string, number>();
vi.mock("../../../components/markdown", () => ({
  Markdown: ({ children }: { children: ReactNode }) => {
    const text = String(children);
    drawn.set(text, (drawn.get(text) ?? 0) + 1);
    return <p>{text}</p>;
  },
}));

const story = makeStory({
  id: "22222222-2222-4222-8222-222222222222",
  title: "The Long Road",
  context: "North",
});
const config = {
  capabilities: ["accounts", "text", "image", "video"],
  providers: { text: "offline", image: "offline", video: "offline", transcription: null },
  offline_providers: true,
};

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
/** Exchanges `from` to `to` (turn numbers), the player's line and the narration, a second apart. */
function exchanges(from: number, to: number): ChatMessage[] {
  const rows: ChatMessage[] = [];
  for (let turn = from; turn <= to; turn += 1) {
    const at = (offset: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, turn * 2 + offset)).toISOString();
    rows.push(
      makeMessage({
        id: id(turn * 2),
        role: "user",
        content: `I walk on (${turn})`,
        timestamp: at(0),
        mode: "chat",
      }),
      makeMessage({ id: id(turn * 2 + 1), content: `Narration ${turn}.`, timestamp: at(1), mode: "chat" }),
    );
  }
  return rows;
}

function serve(pages: Record<string, () => unknown>, chat?: (call: FetchCall) => Response) {
  return mockFetch((call) => {
    const { path, method } = call;
    if (path === "/api/config") return json(config);
    if (path === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
    if (path.startsWith(`/api/stories/${story.id}/messages`) && method === "GET") {
      const page = pages[path.slice(`/api/stories/${story.id}/messages`.length)];
      if (page) return json(page());
    }
    if (path === `/api/stories/${story.id}/chat` && method === "POST" && chat) return chat(call);
    if (path === `/api/stories/${story.id}/redo` && method === "GET")
      return json({ success: true, redoable: 0 });
    if (path.startsWith(`/api/stories/${story.id}/lore-suggestions`))
      return json({ success: true, suggestions: [] });
    if (path === "/api/stories") return json({ success: true, stories: [story] });
    return json({ detail: `unexpected ${method} ${path}` }, 404);
  });
}

const page = (messages: ChatMessage[], more: { cursor: string | null; turnsBefore: number }) => ({
  success: true,
  messages,
  has_more: more.cursor !== null,
  next_cursor: more.cursor,
  has_newer: false,
  newer_cursor: null,
  turns_before: more.turnsBefore,
});

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

/** jsdom lays nothing out: the log's rows are 100 px each, its window 500 px, and it scrolls where it is told. */
function layOut() {
  const restore: { mockRestore: () => void }[] = [
    vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockImplementation(function (this: HTMLElement) {
      return this.getAttribute("role") === "log" ? this.querySelectorAll("li").length * 100 : 0;
    }),
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockImplementation(function (this: HTMLElement) {
      return this.getAttribute("role") === "log" ? 500 : 0;
    }),
  ];
  const tops = new WeakMap<HTMLElement, number>();
  restore.push(
    vi.spyOn(HTMLElement.prototype, "scrollTop", "get").mockImplementation(function (this: HTMLElement) {
      return tops.get(this) ?? 0;
    }),
    vi.spyOn(HTMLElement.prototype, "scrollTop", "set").mockImplementation(function (
      this: HTMLElement,
      value: number,
    ) {
      tops.set(this, value);
    }),
  );
  return () => {
    for (const spy of restore) spy.mockRestore();
  };
}

afterEach(() => {
  drawn.clear();
  vi.restoreAllMocks();
});

describe("a long story", () => {
  it("opens on the newest page, and scrolling up reads the page before it without moving the reader", async () => {
    const undo = layOut();
    const calls = serve({
      "?limit=30": () => page(exchanges(6, 10), { cursor: "page-2", turnsBefore: 5 }),
      "?before=page-2": () => page(exchanges(1, 5), { cursor: null, turnsBefore: 0 }),
    });
    renderStory();
    await screen.findByText("Narration 10.");
    const log = screen.getByRole("log", { name: "Conversation" });
    // Opened on the newest page alone; the older one is not read until the reader scrolls up.
    expect(screen.queryByText("Narration 5.")).toBeNull();
    expect(screen.getByText("Earlier messages load as you scroll up")).toBeTruthy();
    expect(calls.filter((c) => c.path.includes("/messages")).map((c) => c.path)).toEqual([
      `/api/stories/${story.id}/messages?limit=30`,
    ]);

    // The reader scrolls up to 150 px from the top: the page before is read and put above.
    log.scrollTop = 150;
    fireEvent.scroll(log);
    await screen.findByText("Narration 5.");
    expect(calls.some((c) => c.path === `/api/stories/${story.id}/messages?before=page-2`)).toBe(true);
    expect(screen.getByText("Narration 1.")).toBeTruthy();
    // Ten rows arrived above: the reader is 1,000 px further down, on the same words.
    await waitFor(() => expect(log.scrollTop).toBe(1_150));
    // That was the first page: nothing more to read.
    expect(screen.queryByText("Earlier messages load as you scroll up")).toBeNull();
    undo();
  });

  it("puts only the rows near the viewport in the page", async () => {
    // The log's window is 600 px tall (jsdom lays nothing out).
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockImplementation(function (this: HTMLElement) {
      return this.getAttribute("role") === "log" ? 600 : 0;
    });
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockImplementation(() => 800);
    serve({ "?limit=30": () => page(exchanges(1, 100), { cursor: null, turnsBefore: 0 }) });
    renderStory();
    const list = await screen.findByRole("list", { name: "Messages" });
    await waitFor(() => expect(list.querySelectorAll("li").length).toBeGreaterThan(0));
    const rows = list.querySelectorAll("li").length;
    // 200 messages in the story; a 600 px window shows a handful, with a few above and below.
    expect(rows).toBeLessThan(40);
    // The list keeps the whole conversation's height, so the scroll bar says how long the story is.
    expect(Number.parseInt(list.style.height, 10)).toBeGreaterThan(10_000);
  });

  it("re-renders the streaming message alone while its words arrive", async () => {
    const call = streamed();
    serve({ "?limit=30": () => page(exchanges(1, 6), { cursor: null, turnsBefore: 0 }) }, call.handler);
    renderStory();
    await screen.findByText("Narration 6.");
    fireEvent.change(screen.getByLabelText("Message"), { target: { value: "I look back" } });
    fireEvent.keyDown(screen.getByLabelText("Message"), { key: "Enter" });
    const stream = await call.stream();
    await act(async () => stream.send("delta", { text: "The road " }));
    await screen.findByText("The road");
    const before = new Map(drawn);

    for (const word of ["bends ", "north ", "again."]) {
      await act(async () => stream.send("delta", { text: word }));
    }
    await screen.findByText("The road bends north again.");
    // The earlier narrations were not drawn again; the streaming one was, word by word.
    for (let turn = 1; turn <= 6; turn += 1) {
      expect(drawn.get(`Narration ${turn}.`), `turn ${turn}`).toBe(before.get(`Narration ${turn}.`));
    }
    expect(drawn.get("The road bends north again.")).toBeGreaterThan(0);
  });
});
