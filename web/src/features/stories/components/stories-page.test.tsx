import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeMessage, makeStory } from "../../../test/story-fixtures";
import { readStoryMediaStates, saveStoryMediaState } from "../media-states";
import { StoriesPage } from "./stories-page";

const forest = makeStory({
  id: "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa",
  title: "The Lantern Forest",
  context: "Misty woods",
  message_count: 4,
  thumbnail: "/api/media/forest.thumb.webp",
});
const neon = makeStory({
  id: "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb",
  title: "Neon Nights",
  context: "A city in the RAIN",
});
const verified = {
  user_id: "u1",
  email: "ada@example.com",
  username: "ada",
  email_verified: true,
  credits_remaining: 15,
  created_at: "2026-01-01T00:00:00Z",
  valid: true,
};

function serve(routes: Record<string, (call: FetchCall) => Response>) {
  return mockFetch((call) => routes[call.path]?.(call) ?? json({ detail: `unexpected ${call.path}` }, 404));
}

function renderPage() {
  return render(
    <Providers auth={SIGNED_IN}>
      <StoriesPage />
    </Providers>,
  );
}

describe("the Stories list", () => {
  it("welcomes a user without stories", async () => {
    serve({ "/api/stories": () => json({ success: true, stories: [] }) });
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Your Stories" })).toBeTruthy();
    expect(screen.getByText("Manage your AI-powered story adventures")).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "Welcome to Your Stories" })).toBeTruthy();
    expect(screen.getByText(/Each story is like a saved game/)).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Create New Story" })).toHaveLength(2);
    expect(screen.queryByLabelText("Search stories")).toBeNull();
  });

  it("shows each story's card and asks the server for the stories whose title or context holds the words", async () => {
    const calls = serve({
      "/api/stories": () =>
        json({ success: true, stories: [forest, neon], next_cursor: null, has_more: false }),
      // The server's search, as GET /api/stories?q= answers it.
      "/api/stories?q=rain": () =>
        json({ success: true, stories: [neon], next_cursor: null, has_more: false }),
      "/api/stories?q=LANTERN": () =>
        json({ success: true, stories: [forest], next_cursor: null, has_more: false }),
      "/api/stories?q=dragon": () => json({ success: true, stories: [], next_cursor: null, has_more: false }),
    });
    renderPage();
    const forestCard = await screen.findByRole("article", { name: "The Lantern Forest" });
    expect(within(forestCard).getByText("Misty woods")).toBeTruthy();
    expect(within(forestCard).getByText("4 messages")).toBeTruthy();
    expect(forestCard.querySelector("img")?.getAttribute("src")).toBe("/api/media/forest.thumb.webp");
    expect(within(forestCard).getByRole("button", { name: "Story Settings" })).toBeTruthy();
    expect(within(forestCard).getByRole("button", { name: "Delete Story" })).toBeTruthy();
    const neonCard = screen.getByRole("article", { name: "Neon Nights" });
    expect(within(neonCard).getByText("0 messages")).toBeTruthy();
    expect(within(neonCard).getByText("New")).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Search stories"), { target: { value: "rain" } });
    await waitFor(() => expect(screen.queryByRole("article", { name: "The Lantern Forest" })).toBeNull());
    expect(screen.getByRole("article", { name: "Neon Nights" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Search stories"), { target: { value: "LANTERN" } });
    await screen.findByRole("article", { name: "The Lantern Forest" });
    await waitFor(() => expect(screen.queryByRole("article", { name: "Neon Nights" })).toBeNull());
    fireEvent.change(screen.getByLabelText("Search stories"), { target: { value: "dragon" } });
    expect(await screen.findByText("No stories match “dragon”")).toBeTruthy();
    // The words went to the server, once each typing pause; the browser filtered nothing itself.
    expect(calls.map((c) => c.path).filter((p) => p.includes("q="))).toEqual([
      "/api/stories?q=rain",
      "/api/stories?q=LANTERN",
      "/api/stories?q=dragon",
    ]);
    fireEvent.click(screen.getAllByRole("button", { name: "Clear search" })[0]!);
    expect(await screen.findByRole("article", { name: "Neon Nights" })).toBeTruthy();
    expect(screen.getByRole("article", { name: "The Lantern Forest" })).toBeTruthy();
  });

  it("loads the next page of stories when the end of the grid scrolls near, and stops at the last", async () => {
    const observed: { callback: IntersectionObserverCallback; target: Element | null }[] = [];
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        entry: { callback: IntersectionObserverCallback; target: Element | null };
        constructor(callback: IntersectionObserverCallback) {
          this.entry = { callback, target: null };
          observed.push(this.entry);
        }
        observe(target: Element) {
          this.entry.target = target;
        }
        disconnect() {
          this.entry.target = null;
        }
        unobserve() {}
        takeRecords() {
          return [];
        }
      },
    );
    const older = makeStory({
      id: "cccccccc-cccc-4ccc-8ccc-cccccccccccc",
      title: "Older Roads",
      context: "",
    });
    const calls = serve({
      "/api/stories": () =>
        json({ success: true, stories: [forest, neon], next_cursor: "c1", has_more: true }),
      "/api/stories?limit=50&cursor=c1": () =>
        json({ success: true, stories: [older], next_cursor: null, has_more: false }),
    });
    renderPage();
    await screen.findByRole("article", { name: "Neon Nights" });
    expect(screen.queryByRole("article", { name: "Older Roads" })).toBeNull();
    act(() => {
      for (const entry of observed.filter((o) => o.target)) {
        entry.callback(
          [{ isIntersecting: true, target: entry.target } as IntersectionObserverEntry],
          {} as IntersectionObserver,
        );
      }
    });
    expect(await screen.findByRole("article", { name: "Older Roads" })).toBeTruthy();
    expect(screen.getAllByRole("article")).toHaveLength(3);
    expect(calls.filter((c) => c.path.startsWith("/api/stories?limit=")).map((c) => c.path)).toEqual([
      "/api/stories?limit=50&cursor=c1",
    ]);
    // The last page leaves nothing to watch.
    await waitFor(() => expect(observed.filter((o) => o.target)).toHaveLength(0));
    vi.unstubAllGlobals();
  });

  it("forgets the stored canvases of stories that no longer exist", async () => {
    const state = { image: "/a.png", video: null, isVideoMode: false, lastUpdated: "2026-01-01T00:00:00Z" };
    saveStoryMediaState(forest.id, state);
    saveStoryMediaState("deleted-elsewhere", state);
    serve({ "/api/stories": () => json({ success: true, stories: [forest, neon] }) });
    renderPage();
    await screen.findByRole("article", { name: "The Lantern Forest" });
    await waitFor(() => expect(Object.keys(readStoryMediaStates())).toEqual([forest.id]));
  });

  it("opens a story: the session first, then its messages, then the canvas from the newest media", async () => {
    const calls = serve({
      "/api/stories": () => json({ success: true, stories: [forest] }),
      "/api/user/verify": () => json(verified),
      [`/api/stories/${forest.id}/messages?limit=30`]: () =>
        json({
          success: true,
          messages: [
            makeMessage({ id: "old", timestamp: "2026-01-01T00:00:00Z", image_url: "/old.png" }),
            makeMessage({
              id: "new",
              timestamp: "2026-01-02T00:00:00Z",
              image_url: "/new.png",
              video_url: "/new.mp4",
            }),
            makeMessage({ id: "text", timestamp: "2026-01-03T00:00:00Z" }),
          ],
        }),
    });
    renderPage();
    fireEvent.click(await screen.findByRole("button", { name: "The Lantern Forest" }));
    await waitFor(() => expect(window.location.pathname).toBe(`/stories/${forest.id}`));
    const paths = calls.map((c) => c.path);
    expect(paths.indexOf("/api/user/verify")).toBeLessThan(
      paths.indexOf(`/api/stories/${forest.id}/messages?limit=30`),
    );
    expect(readStoryMediaStates()[forest.id]).toEqual({
      image: "/new.png",
      video: "/new.mp4",
      isVideoMode: true,
      lastUpdated: "2026-01-02T00:00:00Z",
    });
  });

  it("stays on the list with 'Failed to open story: {message}' when the messages cannot be read", async () => {
    serve({
      "/api/stories": () => json({ success: true, stories: [forest] }),
      "/api/user/verify": () => json(verified),
      [`/api/stories/${forest.id}/messages?limit=30`]: () => json({ detail: "Story not found" }, 404),
    });
    renderPage();
    fireEvent.click(await screen.findByRole("button", { name: "The Lantern Forest" }));
    expect(await screen.findByText("Failed to open story: Story not found")).toBeTruthy();
    expect(window.location.pathname).not.toMatch(/^\/stories\/./);
  });

  it("says 'Failed to load data: {message}' with a retry when the list cannot be read", async () => {
    serve({ "/api/stories": () => json({ detail: "Database unavailable" }, 400) });
    renderPage();
    expect(await screen.findByText("Failed to load data: Database unavailable")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("speaks German: the headings, the cards' counts and dates, and the delete question", async () => {
    await setLanguage("de");
    const epic = makeStory({
      id: "cccccccc-cccc-4ccc-8ccc-cccccccccccc",
      title: "Long Road",
      message_count: 1250,
      last_updated: "2026-03-04T10:00:00Z",
    });
    const single = makeStory({
      id: "dddddddd-dddd-4ddd-8ddd-dddddddddddd",
      title: "One Step",
      message_count: 1,
    });
    serve({
      "/api/stories": () => json({ success: true, stories: [forest, neon, epic, single], has_more: false }),
    });
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Deine Geschichten" })).toBeTruthy();
    expect(screen.getByText("Verwalte deine KI-gestützten Abenteuer")).toBeTruthy();
    const forestCard = await screen.findByRole("article", { name: "The Lantern Forest" });
    expect(within(forestCard).getByText("4 Nachrichten")).toBeTruthy();
    expect(within(forestCard).getByText("5. März 2026")).toBeTruthy();
    expect(
      within(screen.getByRole("article", { name: "Long Road" })).getByText("1.250 Nachrichten"),
    ).toBeTruthy();
    expect(within(screen.getByRole("article", { name: "One Step" })).getByText("1 Nachricht")).toBeTruthy();
    expect(within(screen.getByRole("article", { name: "Neon Nights" })).getByText("Neu")).toBeTruthy();
    expect(screen.getByLabelText("Geschichten durchsuchen")).toBeTruthy();

    fireEvent.click(within(forestCard).getByRole("button", { name: "Geschichte löschen" }));
    const dialog = await screen.findByRole("dialog", { name: "Geschichte löschen" });
    expect(dialog.textContent).toContain(
      "Willst du „The Lantern Forest“ wirklich löschen? Das lässt sich nicht rückgängig machen.",
    );
    expect(within(dialog).getByText("„The Lantern Forest“").hasAttribute("data-user-text")).toBe(true);
  });
});
