// Organising the Gallery (decision 0141) as a player does it: a heart on a tile, filters asked of the server,
// a selection put on a board or downloaded as one zip, and the details panel with its boards.
import type { GalleryItem } from "@storyverse/contract/media";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { GalleryPage } from "./gallery-page";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const BOARD = "10000000-0000-4000-8000-000000000001";
const STORY = "20000000-0000-4000-8000-000000000001";

function item(n: number, overrides: Partial<GalleryItem> = {}): GalleryItem {
  return {
    id: id(n),
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
    favourite: false,
    boards: [],
    ...overrides,
  };
}

const board = { id: BOARD, name: "Harbour", count: 0, cover_url: null, created_at: "2026-01-01T00:00:00Z" };

beforeEach(() => {
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    },
  );
});

/** A server with three pictures, one board and one story; `extra` answers anything else. */
function server(extra: (call: FetchCall) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path === "/api/boards") return json({ boards: [board] });
    if (call.path.startsWith("/api/stories"))
      return json({ success: true, stories: [{ id: STORY, title: "The Lost Map" }], next_cursor: null });
    const url = new URL(call.path, "http://localhost");
    if (url.pathname === "/api/gallery") {
      const filtered = ["kind", "favourite", "board", "story", "from", "to"].some((f) =>
        url.searchParams.has(f),
      );
      return json({ success: true, items: filtered ? [] : [item(1), item(2), item(3)], next_cursor: null });
    }
    return json({ detail: "not here" }, 404);
  });
}

function renderGallery() {
  return render(
    <Providers auth={SIGNED_IN}>
      <GalleryPage />
    </Providers>,
  );
}

const grid = () => screen.getByRole("list", { name: "Your media" });

describe("organising the Gallery", () => {
  it("marks a favourite from its tile", async () => {
    const calls = server((call) =>
      call.method === "PUT" ? json({ item: item(2, { favourite: true }) }) : undefined,
    );
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    const heart = within(grid()).getByRole("button", { name: "Favourite Scene 2" });
    expect(heart.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(heart);
    await waitFor(() => expect(calls.some((call) => call.method === "PUT")).toBe(true));
    expect(calls.find((call) => call.method === "PUT")).toMatchObject({
      path: `/api/media/${id(2)}`,
      body: { favourite: true },
    });
  });

  it("asks the server for the filtered pages and says when nothing matches", async () => {
    const calls = server();
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    fireEvent.change(await screen.findByLabelText("Kind"), { target: { value: "video" } });
    fireEvent.click(screen.getByRole("button", { name: "Favourites" }));
    await waitFor(() => expect(screen.getByLabelText("Board").querySelectorAll("option")).toHaveLength(2));
    fireEvent.change(screen.getByLabelText("Board"), { target: { value: BOARD } });
    await waitFor(() => expect(screen.getByLabelText("Story").querySelectorAll("option")).toHaveLength(2));
    fireEvent.change(screen.getByLabelText("Story"), { target: { value: STORY } });
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-01-01" } });
    expect(await screen.findByText("Nothing in your Gallery matches these filters")).toBeTruthy();
    expect(calls.map((call) => call.path)).toContain(
      `/api/gallery?limit=30&kind=video&story=${STORY}&board=${BOARD}&favourite=1&from=2026-01-01`,
    );
    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(within(grid()).getAllByRole("listitem")).toHaveLength(3));
  });

  it("puts a selection on a board and downloads it as one zip", async () => {
    const calls = server((call) => {
      if (call.path === `/api/boards/${BOARD}`) return json({ board: { ...board, count: 2 } });
      if (call.path === "/api/media/zip")
        return new Response("PK", {
          headers: { "Content-Disposition": 'attachment; filename="storyverse-gallery-2026-01-01.zip"' },
        });
      return undefined;
    });
    const createObjectURL = vi.fn(() => "blob:zip");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    fireEvent.click(screen.getByRole("button", { name: "Select" }));
    const tiles = within(grid()).getAllByRole("button", { pressed: false });
    fireEvent.click(tiles[0]!);
    fireEvent.click(tiles[2]!);
    expect(screen.getByText("2 selected")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Download" }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(calls.find((call) => call.path === "/api/media/zip")).toMatchObject({
      method: "POST",
      body: { ids: [id(1), id(3)] },
    });

    await waitFor(() =>
      expect(screen.getByLabelText("Add selected to a board").querySelectorAll("option")).toHaveLength(2),
    );
    fireEvent.change(screen.getByLabelText("Add selected to a board"), { target: { value: BOARD } });
    await waitFor(() => expect(screen.queryByText("2 selected")).toBeNull());
    expect(calls.find((call) => call.path === `/api/boards/${BOARD}`)).toMatchObject({
      method: "PUT",
      body: { add: [id(1), id(3)] },
    });
  });

  it("shows an item's details and puts it on a board from there", async () => {
    let onBoard = false;
    const calls = server((call) => {
      if (call.path === `/api/media/${id(1)}` && call.method === "PUT") {
        onBoard = (call.body as { boards: string[] }).boards.includes(BOARD);
        return json({ item: item(1, { boards: onBoard ? [BOARD] : [] }) });
      }
      if (call.path === `/api/media/${id(1)}/details`)
        return json({
          item: item(1, { description: "A red dragon over the harbour", boards: onBoard ? [BOARD] : [] }),
          prompt: "A red dragon over the harbour",
          width: 2048,
          height: 1536,
          bytes: 3 * 1024 * 1024,
          mime_type: "image/png",
          model: null,
          seed: null,
          references: [],
          parent: null,
          children: [item(7, { type: "video", description: "The dragon flies" })],
        });
      return undefined;
    });
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    fireEvent.click(within(grid()).getByRole("button", { name: "Details of Scene 1" }));
    const panel = await screen.findByRole("dialog", { name: "Details" });
    expect(await within(panel).findByText("A red dragon over the harbour")).toBeTruthy();
    expect(within(panel).getByText("2048 × 1536 px, 3.0 MB")).toBeTruthy();
    expect(within(panel).getAllByText("Not recorded")).toHaveLength(2);
    // The clip made from it shows as its small thumbnail.
    const madeFromIt = within(panel).getByRole("list", { name: "Made from it" });
    expect(within(madeFromIt).getByRole("img").getAttribute("src")).toBe("/media/7.thumb.webp?sig=x");

    fireEvent.click(await within(panel).findByRole("checkbox", { name: "Harbour" }));
    await waitFor(() =>
      expect(within(panel).getByRole("checkbox", { name: "Harbour" })).toHaveProperty("checked", true),
    );
    expect(calls.find((call) => call.method === "PUT")).toMatchObject({ body: { boards: [BOARD] } });
  });

  it("shows an edit's seed and the picture it was edited from (decision 0145)", async () => {
    server((call) => {
      if (call.path === `/api/media/${id(1)}/details`)
        return json({
          item: item(1, { description: "A golden moon" }),
          prompt: "A golden moon",
          width: 2048,
          height: 1536,
          bytes: 1024,
          mime_type: "image/png",
          model: null,
          seed: 1234,
          references: [],
          parent: item(2),
          children: [],
        });
      return undefined;
    });
    renderGallery();
    await screen.findByRole("list", { name: "Your media" });
    fireEvent.click(within(grid()).getByRole("button", { name: "Details of Scene 1" }));
    const panel = await screen.findByRole("dialog", { name: "Details" });
    expect(await within(panel).findByText("1234")).toBeTruthy();
    expect(within(panel).getAllByText("Not recorded")).toHaveLength(1);
    const madeFrom = within(panel).getByRole("list", { name: "Made from" });
    expect(within(madeFrom).getByRole("img").getAttribute("src")).toBe("/media/2.thumb.webp?sig=x");
  });

  it("opens the picture editor from the details panel, only when the image service can edit (decision 0148)", async () => {
    let kinds: string[] = [];
    server((call) => {
      if (call.path === "/api/config")
        return json({
          capabilities: ["accounts", "image"],
          providers: { text: "offline", image: "offline", video: "offline", transcription: null },
          offline_providers: true,
          image_edit_kinds: kinds,
        });
      if (call.path === `/api/media/${id(1)}/details`)
        return json({
          item: item(1),
          prompt: "Scene 1",
          width: 64,
          height: 48,
          bytes: 1024,
          mime_type: "image/png",
          model: null,
          seed: null,
          references: [],
          parent: null,
          children: [],
        });
      return undefined;
    });
    const open = async () => {
      const view = render(
        <Providers auth={SIGNED_IN}>
          <QuotaPromptProvider>
            <GalleryPage />
          </QuotaPromptProvider>
        </Providers>,
      );
      await screen.findByRole("list", { name: "Your media" });
      fireEvent.click(within(grid()).getByRole("button", { name: "Details of Scene 1" }));
      const panel = await screen.findByRole("dialog", { name: "Details" });
      await within(panel).findByText("64 × 48 px, 1 KB");
      return { view, panel };
    };

    const without = await open();
    expect(within(without.panel).queryByRole("button", { name: "Edit" })).toBeNull();
    without.view.unmount();

    kinds = ["vary"];
    const { panel } = await open();
    fireEvent.click(await within(panel).findByRole("button", { name: "Edit" }));
    const editor = await screen.findByRole("dialog", { name: "Edit picture" });
    expect(await within(editor).findByRole("button", { name: /^Subtle/ })).toBeTruthy();
    expect(within(editor).queryByRole("radio", { name: "Repaint a region" })).toBeNull();
  });

  it("makes a clip from a picture and offers to extend a clip only under 20 seconds (decision 0160)", async () => {
    const clip = (n: number, seconds: number) =>
      item(n, {
        type: "video",
        url: `/media/${n}.mp4?sig=x`,
        file_extension: "mp4",
        duration_seconds: seconds,
      });
    const items = [item(1), clip(2, 20), clip(3, 15)];
    const detailsOf = (found: GalleryItem) =>
      json({
        item: found,
        prompt: found.description,
        width: 64,
        height: 48,
        bytes: 1024,
        mime_type: found.type === "video" ? "video/mp4" : "image/png",
        model: null,
        seed: null,
        references: [],
        parent: null,
        children: [],
      });
    const calls = server((call) => {
      if (call.path === "/api/config")
        return json({
          capabilities: ["accounts", "image", "video"],
          providers: { text: "offline", image: "offline", video: "offline", transcription: null },
          offline_providers: true,
        });
      if (call.path === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
      if (call.path.startsWith("/api/gallery")) return json({ success: true, items, next_cursor: null });
      const asked = items.find((found) => call.path === `/api/media/${found.id}/details`);
      if (asked) return detailsOf(asked);
      return undefined;
    });
    render(
      <Providers auth={SIGNED_IN}>
        <QuotaPromptProvider>
          <GalleryPage />
        </QuotaPromptProvider>
      </Providers>,
    );
    await screen.findByRole("list", { name: "Your media" });
    const details = async (label: string) => {
      fireEvent.click(within(grid()).getByRole("button", { name: `Details of ${label}` }));
      return screen.findByRole("dialog", { name: "Details" });
    };

    // A 20-second clip cannot be extended, and the panel says why.
    let panel = await details("Scene 2");
    const atMost = await within(panel).findByRole<HTMLButtonElement>("button", { name: /^Extend by 5 s/ });
    expect(atMost.disabled).toBe(true);
    expect(within(panel).getByText("This clip is 20 s long: clips can be at most 20 s.")).toBeTruthy();
    expect(within(panel).queryByRole("button", { name: "Make a clip" })).toBeNull();
    fireEvent.click(within(panel).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Details" })).toBeNull());

    panel = await details("Scene 3");
    fireEvent.click(await within(panel).findByRole("button", { name: /^Extend by 5 s/ }));
    const extend = await screen.findByRole("dialog", { name: "Extend this clip" });
    expect(await within(extend).findByText("Now 15 s long; extended, 20 s.")).toBeTruthy();
    fireEvent.click(within(extend).getAllByRole("button", { name: "Close" }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Extend this clip" })).toBeNull());
    fireEvent.click(
      within(screen.getByRole("dialog", { name: "Details" })).getByRole("button", { name: "Close" }),
    );
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Details" })).toBeNull());

    panel = await details("Scene 1");
    fireEvent.click(await within(panel).findByRole("button", { name: "Make a clip" }));
    const make = await screen.findByRole("dialog", { name: "Make a clip" });
    expect((await within(make).findByLabelText<HTMLTextAreaElement>("What happens in the clip")).value).toBe(
      "Scene 1",
    );
    expect(calls.some((call) => call.method === "POST")).toBe(false);
  });
});
