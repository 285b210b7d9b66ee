// A long shared story on its public page (decision 0138): it opens on the newest page; scrolling up (or "Show
// earlier messages") reads the page before it without moving the reader; a failed read says so and can be
// tried again; a long story is windowed (only rows near the viewport are in the page).
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { SharedStoryPage } from "./shared-story-page";

const EARLIER_MESSAGES = "Earlier messages load as you scroll up";
const LOAD_EARLIER = "Show earlier messages";
const EARLIER_FAILED = "Could not load the earlier messages. Please try again.";

const TOKEN = "AbCdEfGhIjKlMnOpQrStUv";

/** Exchanges `from` to `to`: the player's line and the narration. */
function exchanges(from: number, to: number) {
  const rows = [];
  for (let turn = from; turn <= to; turn += 1) {
    const base = { mode: "chat", image_url: null, video_url: null, picture: null };
    rows.push(
      { ...base, id: `p${turn}`, role: "user", content: `I walk on (${turn})` },
      { ...base, id: `n${turn}`, role: "assistant", content: `Narration ${turn}.` },
    );
  }
  return rows;
}

const page = (messages: unknown[], cursor: string | null) => ({
  success: true,
  story: { title: "The Long Road", context: "", created_at: "2026-01-01T00:00:00.000Z", thumbnail: null },
  author: null,
  messages,
  has_more: cursor !== null,
  next_cursor: cursor,
});

/** jsdom lays nothing out: the rows are 100 px tall one under the other, and the window scrolls where it is told. */
function layOut() {
  let y = 0;
  vi.spyOn(window, "scrollY", "get").mockImplementation(() => y);
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    const index = [...document.querySelectorAll("li")].indexOf(this as HTMLLIElement);
    const top = this.tagName === "LI" ? index * 100 - y : -y;
    return { top, bottom: top + 100, left: 0, right: 800, width: 800, height: 100, x: 0, y: top } as DOMRect;
  });
  const scrollTo = vi.spyOn(window, "scrollTo").mockImplementation(((options: ScrollToOptions) => {
    y = options.top ?? y;
  }) as typeof window.scrollTo);
  vi.spyOn(window, "scrollBy").mockImplementation(((options: ScrollToOptions) => {
    y += options.top ?? 0;
  }) as typeof window.scrollBy);
  const scroll = (to: number) => {
    y = to;
    fireEvent.scroll(window);
  };
  return { scroll, scrollTo, at: () => y };
}

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, "", "/");
});

describe("a long shared story", () => {
  it("opens on the newest page, and scrolling up reads the page before it without moving the reader", async () => {
    window.history.replaceState(null, "", `/s/${TOKEN}`);
    const view = layOut();
    const calls = mockFetch(({ path }) => {
      if (path === `/api/shared/${TOKEN}?limit=30`) return json(page(exchanges(6, 10), "older-1"));
      if (path === `/api/shared/${TOKEN}?before=older-1`) return json(page(exchanges(1, 5), null));
      return json({ detail: `unexpected ${path}` }, 404);
    });
    render(<SharedStoryPage />);
    await screen.findByText("Narration 10.");
    // Opened on the newest page alone; the older one is not read until the reader scrolls up.
    expect(screen.queryByText("Narration 5.")).toBeNull();
    expect(screen.getByText(EARLIER_MESSAGES)).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual([`/api/shared/${TOKEN}?limit=30`]);

    // Scrolling down reads nothing; scrolling back up near the earliest message reads the page before it.
    view.scroll(900);
    expect(calls).toHaveLength(1);
    view.scroll(300);
    await screen.findByText("Narration 5.");
    expect(calls.map((c) => c.path)).toContain(`/api/shared/${TOKEN}?before=older-1`);
    expect(screen.getByText("Narration 1.")).toBeTruthy();
    // Ten rows arrived above: the reader is 1,000 px further down, on the same words.
    await waitFor(() => expect(view.at()).toBe(1_300));
    // That was the first page: nothing more to read.
    expect(screen.queryByText(EARLIER_MESSAGES)).toBeNull();
    expect(screen.queryByRole("button", { name: LOAD_EARLIER })).toBeNull();
    expect(screen.getAllByRole("listitem")).toHaveLength(20);
  });

  it("reads the page before when asked, says so when that fails, and tries again", async () => {
    window.history.replaceState(null, "", `/s/${TOKEN}`);
    layOut();
    let fail = true;
    mockFetch(({ path }) => {
      if (path === `/api/shared/${TOKEN}?limit=30`) return json(page(exchanges(6, 10), "older-1"));
      if (path === `/api/shared/${TOKEN}?before=older-1`)
        return fail ? json({ detail: "down" }, 503) : json(page(exchanges(1, 5), null));
      return json({ detail: `unexpected ${path}` }, 404);
    });
    render(<SharedStoryPage />);
    await screen.findByText("Narration 10.");
    fireEvent.click(screen.getByRole("button", { name: LOAD_EARLIER }));
    expect((await screen.findByRole("alert")).textContent).toBe(EARLIER_FAILED);
    expect(screen.queryByText("Narration 5.")).toBeNull();

    fail = false;
    fireEvent.click(screen.getByRole("button", { name: LOAD_EARLIER }));
    await screen.findByText("Narration 5.");
    expect(screen.queryByRole("alert")).toBeNull();
    // In reading order: the older page above the newer one.
    const text = document.body.textContent ?? "";
    expect(text.indexOf("Narration 5.")).toBeLessThan(text.indexOf("Narration 6."));
  });

  it("puts only the rows near the viewport in the page", async () => {
    window.history.replaceState(null, "", `/s/${TOKEN}`);
    // A 400 px window (jsdom measures every row as its gap alone, so a taller one holds more rows than a screen).
    vi.spyOn(window, "innerHeight", "get").mockImplementation(() => 400);
    mockFetch(() => json(page(exchanges(1, 100), null)));
    render(<SharedStoryPage />);
    const list = await screen.findByRole("list", { name: "The story" });
    await waitFor(() => expect(list.querySelectorAll("li").length).toBeGreaterThan(0));
    // 200 messages; the window shows a handful, with a few above and below.
    expect(list.querySelectorAll("li").length).toBeLessThan(40);
    // The list keeps the whole story's height, so the scroll bar says how long it is.
    expect(Number.parseInt(list.style.height, 10)).toBeGreaterThan(10_000);
  });
});
