import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
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

  it("shows each story's card and filters them by title or context, ignoring case", async () => {
    serve({ "/api/stories": () => json({ success: true, stories: [forest, neon] }) });
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
    expect(screen.queryByRole("article", { name: "The Lantern Forest" })).toBeNull();
    expect(screen.getByRole("article", { name: "Neon Nights" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Search stories"), { target: { value: "LANTERN" } });
    expect(screen.getByRole("article", { name: "The Lantern Forest" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Search stories"), { target: { value: "dragon" } });
    expect(screen.getByText("No stories match “dragon”")).toBeTruthy();
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
      [`/api/stories/${forest.id}/messages`]: () =>
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
      paths.indexOf(`/api/stories/${forest.id}/messages`),
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
      [`/api/stories/${forest.id}/messages`]: () => json({ detail: "Story not found" }, 404),
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
});
