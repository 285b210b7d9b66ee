import type { GalleryItem } from "@storyverse/contract/media";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { GalleryPage } from "./gallery-page";

const DELETE_WARNING = "It is removed from your Gallery and your storage. This cannot be undone.";

function item(n: number, overrides: Partial<GalleryItem> = {}): GalleryItem {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    type: "image",
    media_url: `/media/${n}.png?sig=x`,
    url: `/media/${n}.png?sig=x`,
    thumbnail_url: `/media/${n}.thumb.webp?sig=x`,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 100 - n)).toISOString(),
    description: `Scene ${n}`,
    source: "studio",
    story_id: null,
    story_title: null,
    file_extension: "png",
    message_id: null,
    ...overrides,
  };
}

/** IntersectionObserver as the browser gives it, driven by the test. */
let observed: { callback: IntersectionObserverCallback; target: Element | null }[] = [];
beforeEach(() => {
  observed = [];
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
});

function scrollToEnd() {
  act(() => {
    for (const entry of observed.filter((o) => o.target)) {
      entry.callback(
        [{ isIntersecting: true, target: entry.target } as IntersectionObserverEntry],
        {} as IntersectionObserver,
      );
    }
  });
}

function renderGallery(auth = SIGNED_IN) {
  return render(
    <Providers auth={auth}>
      <GalleryPage />
    </Providers>,
  );
}

const grid = () => screen.getByRole("list", { name: "Your media" });
/** Each item's tile (the first button of its cell; the second deletes it). */
const tiles = () =>
  within(grid())
    .getAllByRole("listitem")
    .map((cell) => within(cell).getAllByRole("button")[0]!);

describe("Gallery page", () => {
  it("says 'Loading Gallery...' while the first page loads", async () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderGallery();
    expect(screen.getByRole("heading", { level: 1, name: "Your Media Gallery" })).toBeTruthy();
    expect(await screen.findByText("Loading Gallery...")).toBeTruthy();
  });

  it("speaks German: the title, the source and date of each tile, a label by date, and the count's plural", async () => {
    await setLanguage("de");
    const midMarch = "2026-03-15T12:00:00.000Z";
    mockFetch(() =>
      json({
        success: true,
        items: [
          item(1, { created_at: midMarch }),
          item(2, { created_at: midMarch, description: "" }),
          item(3, { created_at: midMarch, source: "story", story_title: "Die Nebelinsel" }),
        ],
        next_cursor: null,
      }),
    );
    renderGallery();
    expect(await screen.findByRole("heading", { level: 1, name: "Deine Mediengalerie" })).toBeTruthy();
    const media = await screen.findByRole("list", { name: "Deine Medien" });
    expect(screen.getByText("3 Einträge")).toBeTruthy();
    expect(screen.getByPlaceholderText("Nach Prompt suchen")).toBeTruthy();
    expect(within(media).getByRole("img", { name: "Bild vom 15. März 2026" })).toBeTruthy();
    expect(within(media).getAllByText("Studio · 15. März 2026", { selector: "span" })).toHaveLength(2);
    expect(within(media).getByText("Die Nebelinsel · 15. März 2026", { selector: "span" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Auswählen" })).toBeTruthy();
  });

  it("says 'No Content Yet' when there is nothing", async () => {
    mockFetch(() => json({ success: true, items: [], next_cursor: null }));
    renderGallery();
    expect(await screen.findByRole("heading", { name: "No Content Yet" })).toBeTruthy();
  });

  it("says 'Gallery: {message}' when loading fails", async () => {
    mockFetch(() => json({ detail: "The gallery is resting." }, 400));
    renderGallery();
    expect((await screen.findByRole("alert")).textContent).toContain("Gallery: The gallery is resting.");
  });

  it("asks a signed-out visitor to log in", () => {
    const calls = mockFetch(() => json({}));
    renderGallery({ isAuthenticated: false, user: null });
    expect(screen.getByRole("alert").textContent).toContain("Please log in to view your gallery");
    expect(calls).toHaveLength(0);
  });

  it("shows thumbnails (never the originals) in the server's order, newest first, descriptions on hover", async () => {
    const calls = mockFetch(() =>
      json({
        success: true,
        items: [
          item(1),
          item(2, { type: "video", url: "/media/2.mp4?sig=x", file_extension: "mp4" }),
          item(3),
        ],
        next_cursor: null,
      }),
    );
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    expect(calls[0]?.path).toBe("/api/gallery?limit=30");
    const images = within(grid()).getAllByRole("img");
    expect(images.map((img) => img.getAttribute("src"))).toEqual([
      "/media/1.thumb.webp?sig=x",
      "/media/2.thumb.webp?sig=x",
      "/media/3.thumb.webp?sig=x",
    ]);
    expect(images.map((img) => img.getAttribute("alt"))).toEqual(["Scene 1", "Video: Scene 2", "Scene 3"]);
    expect(tiles()[0]?.getAttribute("title")).toBe("Scene 1");
    expect(tiles()[0]?.textContent).toContain("Scene 1");
    expect(screen.getByText("3 items")).toBeTruthy();
  });

  it("searches the prompts on the server after a pause in typing, pages the matches, and says when nothing matched", async () => {
    const calls = mockFetch((call) => {
      const q = new URL(call.path, "http://localhost").searchParams.get("q");
      const cursor = new URL(call.path, "http://localhost").searchParams.get("cursor");
      if (q === "harbour" && !cursor)
        return json({
          success: true,
          items: [item(4, { description: "A harbour at dawn" })],
          next_cursor: "c2",
        });
      if (q === "harbour")
        return json({
          success: true,
          items: [item(9, { description: "Harbour lights" })],
          next_cursor: null,
        });
      if (q === "dragon") return json({ success: true, items: [], next_cursor: null });
      return json({ success: true, items: [item(1), item(2), item(3)], next_cursor: null });
    });
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    const box = screen.getByLabelText("Search the Gallery");
    // Each keystroke is not a request: the words go once typing pauses.
    fireEvent.change(box, { target: { value: "har" } });
    fireEvent.change(box, { target: { value: "harbour" } });
    await waitFor(() =>
      expect(tiles().map((tile) => tile.getAttribute("title"))).toEqual(["A harbour at dawn"]),
    );
    expect(calls.map((c) => c.path).filter((path) => path.includes("q="))).toEqual([
      "/api/gallery?limit=30&q=harbour",
    ]);
    // The matches page on as the grid's end scrolls near, with the search's cursor.
    scrollToEnd();
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(calls.at(-1)?.path).toBe("/api/gallery?limit=30&cursor=c2&q=harbour");

    fireEvent.change(box, { target: { value: "dragon" } });
    expect(await screen.findByText("Nothing in your Gallery matches “dragon”")).toBeTruthy();
    // Clearing the words shows the whole Gallery again (the box stays to search again).
    // The empty state's own button (the box has its clear button too).
    fireEvent.click(screen.getAllByRole("button", { name: "Clear search" }).at(-1)!);
    await waitFor(() => expect(tiles()).toHaveLength(3));
    expect((screen.getByLabelText("Search the Gallery") as HTMLInputElement).value).toBe("");
  });

  it("offers no search box when the Gallery is empty", async () => {
    mockFetch(() => json({ success: true, items: [], next_cursor: null }));
    renderGallery();
    await screen.findByRole("heading", { name: "No Content Yet" });
    expect(screen.queryByLabelText("Search the Gallery")).toBeNull();
  });

  it("opens the lightbox on a click and steps through the loaded items with the keyboard", async () => {
    mockFetch(() =>
      json({
        success: true,
        items: [item(1), item(2, { type: "video", url: "/media/2.mp4?sig=x" }), item(3)],
        next_cursor: null,
      }),
    );
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    fireEvent.click(tiles()[1]!);
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("2 of 3")).toBeTruthy();
    const video = dialog.querySelector("video");
    expect(video?.getAttribute("src")).toBe("/media/2.mp4?sig=x");
    expect(video?.muted).toBe(true);
    fireEvent.keyDown(dialog, { key: "ArrowRight" });
    expect(within(dialog).getByText("3 of 3")).toBeTruthy();
    expect(within(dialog).getByRole("img").getAttribute("src")).toBe("/media/3.png?sig=x");
    fireEvent.keyDown(dialog, { key: "ArrowLeft" });
    fireEvent.keyDown(dialog, { key: "ArrowLeft" });
    expect(within(dialog).getByText("1 of 3")).toBeTruthy();
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("loads the next page by its cursor when the end of the grid scrolls into view", async () => {
    const calls = mockFetch((call) =>
      call.path.includes("cursor=")
        ? json({ success: true, items: [item(4), item(5)], next_cursor: null })
        : json({ success: true, items: [item(1), item(2), item(3)], next_cursor: "page-2" }),
    );
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    expect(tiles()).toHaveLength(3);
    scrollToEnd();
    await waitFor(() => expect(tiles()).toHaveLength(5));
    // (The boards and stories the filters offer are asked for beside the pages.)
    const pages = () => calls.map((call) => call.path).filter((path) => path.startsWith("/api/gallery"));
    expect(pages()).toEqual(["/api/gallery?limit=30", "/api/gallery?limit=30&cursor=page-2"]);
    expect(screen.getByText("5 items")).toBeTruthy();
    // The last page: nothing more is asked for.
    scrollToEnd();
    expect(pages()).toHaveLength(2);
  });

  it("deletes an item after asking, and asks again in the server's words when a story still shows it", async () => {
    let items = [item(1), item(2), item(3)];
    const calls = mockFetch((call) => {
      if (call.path === "/api/gallery/delete") {
        const body = call.body as { ids: string[]; confirm: boolean };
        if (!body.confirm) {
          return json(
            {
              detail: 'This picture is shown in your story "The Ember Crown". Delete it anyway?',
              code: "media_in_use",
            },
            409,
          );
        }
        items = items.filter((entry) => !body.ids.includes(entry.id));
        return json({ deleted: body.ids, usage: { usedBytes: 10, limitBytes: 100 } });
      }
      return json({ success: true, items, next_cursor: null });
    });
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    fireEvent.click(screen.getByRole("button", { name: "Delete Scene 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete this picture?" });
    expect(dialog.textContent).toContain(DELETE_WARNING);
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    expect(
      await within(dialog).findByText(
        'This picture is shown in your story "The Ember Crown". Delete it anyway?',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete anyway" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(calls.filter((call) => call.path === "/api/gallery/delete").map((call) => call.body)).toEqual([
      { ids: [item(1).id], confirm: false },
      { ids: [item(1).id], confirm: true },
    ]);
  });

  it("selects several items and deletes them together", async () => {
    let items = [item(1), item(2), item(3)];
    const calls = mockFetch((call) => {
      if (call.path === "/api/gallery/delete") {
        const body = call.body as { ids: string[] };
        items = items.filter((entry) => !body.ids.includes(entry.id));
        return json({ deleted: body.ids, usage: { usedBytes: 0, limitBytes: null } });
      }
      return json({ success: true, items, next_cursor: null });
    });
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    fireEvent.click(screen.getByRole("button", { name: "Select" }));
    fireEvent.click(tiles()[0]!);
    fireEvent.click(tiles()[2]!);
    expect(tiles()[0]?.getAttribute("aria-pressed")).toBe("true");
    expect(tiles()[1]?.getAttribute("aria-pressed")).toBe("false");
    expect(screen.getByText("2 selected")).toBeTruthy();
    // Selecting opens nothing.
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Delete selected" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete 2 items?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(tiles()).toHaveLength(1));
    expect(calls.find((call) => call.path === "/api/gallery/delete")?.body).toEqual({
      ids: [item(1).id, item(3).id],
      confirm: false,
    });
    expect(screen.queryByText("2 selected")).toBeNull();
  });
});
