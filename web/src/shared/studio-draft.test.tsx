// "Use this seed" from the Gallery's details panel (decision 0149), through the whole app: the Studio opens with
// the picture's seed, its shape and its prompt in the composer, ready for a changed prompt.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../test/mock-fetch";
import { renderApp, SIGNED_IN } from "../test/render-app";
import { offerStudioDraft, shapeOf, takeStudioDraft } from "./studio-draft";

const ID = "00000000-0000-4000-8000-000000000001";
const picture = {
  id: ID,
  type: "image",
  media_url: "/media/1.png?sig=x",
  url: "/media/1.png?sig=x",
  thumbnail_url: "/media/1.thumb.webp?sig=x",
  created_at: "2026-01-01T00:00:00.000Z",
  description: "A tall tower in the clouds",
  source: "studio",
  story_id: null,
  story_title: null,
  file_extension: "png",
  message_id: null,
  favourite: false,
  boards: [],
  seed: 4242,
  parent_id: null,
  width: 1152,
  height: 2048,
};

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

describe("a Studio draft", () => {
  it("is taken once", () => {
    offerStudioDraft({ prompt: "a fox", seed: 1, shape: null });
    expect(takeStudioDraft()).toEqual({ prompt: "a fox", seed: 1, shape: null });
    expect(takeStudioDraft()).toBeNull();
  });

  it("knows a picture's shape from its size, within a pixel of rounding", () => {
    expect(shapeOf(1152, 2048)).toBe("9:16");
    expect(shapeOf(2048, 878)).toBe("21:9");
    expect(shapeOf(2048, 2048)).toBe("1:1");
    expect(shapeOf(1536, 1024)).toBeNull();
    expect(shapeOf(null, 100)).toBeNull();
  });
});

describe("Use this seed in the Gallery's details", () => {
  it("opens the Studio with the picture's seed, shape and prompt", async () => {
    mockFetch(({ path }) => {
      const url = new URL(path, "http://localhost");
      if (url.pathname === "/api/gallery")
        return json({ success: true, items: [picture], next_cursor: null });
      if (url.pathname === "/api/boards") return json({ boards: [] });
      if (url.pathname === `/api/media/${ID}/details`)
        return json({
          item: picture,
          prompt: "A tall tower in the clouds",
          width: 1152,
          height: 2048,
          bytes: 1024,
          mime_type: "image/png",
          model: null,
          seed: 4242,
          references: [],
          parent: null,
          children: [],
        });
      if (url.pathname === "/api/studio/messages") return json({ success: true, messages: [] });
      if (url.pathname === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
      return json({ detail: "Not found" }, 404);
    });
    renderApp("/library", SIGNED_IN);
    const grid = await screen.findByRole("list", { name: "Your media" }, { timeout: 5000 });
    fireEvent.click(within(grid).getByRole("button", { name: /^Details of/ }));
    const panel = await screen.findByRole("dialog", { name: "Details" });
    fireEvent.click(await within(panel).findByRole("button", { name: "Use this seed" }));

    await waitFor(() => expect(window.location.pathname).toBe("/studio"));
    const seed = (await screen.findByRole("textbox", { name: "Seed" })) as HTMLInputElement;
    await waitFor(() => expect(seed.value).toBe("4242"));
    expect((screen.getByRole("radio", { name: "9:16 tall" }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("textbox", { name: "Describe the image" }) as HTMLTextAreaElement).value).toBe(
      "A tall tower in the clouds",
    );
  });
});
