import type { ChatMessage } from "@storyverse/contract/chat";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeMessage } from "../../../test/story-fixtures";
import { MainChat } from "./main-chat";

describe("the main chat", () => {
  it("shows the never-ending story with its newest media on the canvas, and sends over /api/chat", async () => {
    const calls = mockFetch(({ path, method }) => {
      if (path === "/api/chat/history?limit=30")
        return json({
          success: true,
          messages: [makeMessage({ id: "a", image_url: "/media/main.png", media_status: "completed" })],
        });
      if (path === "/api/chat" && method === "POST")
        return json({
          success: true,
          quota_exceeded: false,
          story_text: "The sea answers.",
          message_id: "b",
          media_generation: { status: "none", type: null },
          quota_info: { remaining: 14.5, unlimited: false, cost: 0.5, charged: 0.5 },
        });
      if (path === "/api/config")
        return json({
          capabilities: ["text"],
          providers: { text: "openai", image: "openai", video: "replicate", transcription: null },
          offline_providers: false,
        });
      return json({ remaining: 15, unlimited: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <QuotaPromptProvider>
          <MainChat />
        </QuotaPromptProvider>
      </Providers>,
    );
    expect(screen.getByRole("heading", { level: 1, name: "Main Story" })).toBeTruthy();
    const canvas = screen.getByRole("region", { name: "Scene canvas" });
    await waitFor(() =>
      expect(within(canvas).getByRole("img", { name: "Generated story scene" }).getAttribute("src")).toBe(
        "/media/main.png",
      ),
    );
    // Real providers: no offline note. Main-chat pictures open the preview but are not references.
    expect(screen.queryByText("Offline AI")).toBeNull();
    expect(screen.queryByRole("button", { name: "Select as reference" })).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Chat" }));
    fireEvent.change(screen.getByLabelText("Message", { exact: true }), { target: { value: "Sail on" } });
    fireEvent.keyDown(screen.getByLabelText("Message", { exact: true }), { key: "Enter" });
    expect(await screen.findByText("The sea answers.")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")).toMatchObject({
      path: "/api/chat",
      body: { prompt: "Sail on", generate_video: false, chat_mode: "chat" },
    });
  });

  it("starts empty with 'Start Your Adventure'", async () => {
    mockFetch(({ path }) =>
      path === "/api/chat/history?limit=30"
        ? json({ success: true, messages: [] })
        : json({ remaining: 15, unlimited: false }),
    );
    render(
      <Providers auth={SIGNED_IN}>
        <QuotaPromptProvider>
          <MainChat />
        </QuotaPromptProvider>
      </Providers>,
    );
    expect(await screen.findByText("Start Your Adventure")).toBeTruthy();
    expect(screen.getByText("No Media Yet")).toBeTruthy();
  });

  it("opens on the newest page, and scrolling up reads the page before it without moving the reader", async () => {
    const undo = layOut();
    const calls = mockFetch(({ path }) => {
      if (path === "/api/chat/history?limit=30") return json(page(exchanges(6, 10), "older-1"));
      if (path === "/api/chat/history?before=older-1") return json(page(exchanges(1, 5), null));
      return json({ remaining: 15, unlimited: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <QuotaPromptProvider>
          <MainChat />
        </QuotaPromptProvider>
      </Providers>,
    );
    await screen.findByText("Narration 10.");
    const log = screen.getByRole("log", { name: "Conversation" });
    // Opened on the newest page alone (decision 0138); the older one is not read until the player scrolls up.
    expect(screen.queryByText("Narration 5.")).toBeNull();
    expect(screen.getByText("Earlier messages load as you scroll up")).toBeTruthy();
    expect(calls.filter((c) => c.path.startsWith("/api/chat/history")).map((c) => c.path)).toEqual([
      "/api/chat/history?limit=30",
    ]);

    log.scrollTop = 150;
    fireEvent.scroll(log);
    await screen.findByText("Narration 5.");
    expect(screen.getByText("Narration 1.")).toBeTruthy();
    // Ten rows arrived above: the player is 1,000 px further down, on the same words.
    await waitFor(() => expect(log.scrollTop).toBe(1_150));
    expect(screen.queryByText("Earlier messages load as you scroll up")).toBeNull();
    undo();
  });
});

afterEach(() => vi.restoreAllMocks());

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
/** Exchanges `from` to `to`, the player's line and the narration, a second apart. */
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

const page = (messages: ChatMessage[], cursor: string | null) => ({
  success: true,
  messages,
  has_more: cursor !== null,
  next_cursor: cursor,
  has_newer: false,
  newer_cursor: null,
  turns_before: 0,
});

/** jsdom lays nothing out: the log's rows are 100 px each, its window 500 px, and it scrolls where it is told. */
function layOut() {
  const tops = new WeakMap<HTMLElement, number>();
  const spies = [
    vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockImplementation(function (this: HTMLElement) {
      return this.getAttribute("role") === "log" ? this.querySelectorAll("li").length * 100 : 0;
    }),
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockImplementation(function (this: HTMLElement) {
      return this.getAttribute("role") === "log" ? 500 : 0;
    }),
    vi.spyOn(HTMLElement.prototype, "scrollTop", "get").mockImplementation(function (this: HTMLElement) {
      return tops.get(this) ?? 0;
    }),
    vi.spyOn(HTMLElement.prototype, "scrollTop", "set").mockImplementation(function (
      this: HTMLElement,
      value: number,
    ) {
      tops.set(this, value);
    }),
  ];
  return () => {
    for (const spy of spies) spy.mockRestore();
  };
}
