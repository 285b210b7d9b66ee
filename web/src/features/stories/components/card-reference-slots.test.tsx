// A Story Card's reference pictures in the editor (decision 0161): up to three more after the portrait, added
// from the gallery or uploaded, moved earlier and removed; Save sends the whole list (the card's own upload
// kept by its url) only when the pictures changed; a full card offers no more.
import type { StoryCard } from "@storyverse/contract/story-cards";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeCard } from "../../../test/story-fixtures";
import { StoryCardsDialog } from "./story-cards-dialog";

const STORY = "11111111-1111-4111-8111-111111111111";
const CARD = "22222222-2222-4222-8222-222222222222";

const card = (references: StoryCard["references"]): StoryCard => ({
  ...makeCard(CARD, "Mara", "character"),
  description: "",
  portrait: references[0] ?? null,
  references,
});

const PORTRAIT = { url: "/media/portrait.webp", gallery_item_id: "gal-1" };
const SIDE = { url: "/media/side.webp", gallery_item_id: "gal-2" };
const OUTFIT = { url: "/media/u/portraits/outfit.webp?sig=1", gallery_item_id: null };

const image = (n: number) => ({
  id: `img-${n}`,
  type: "image",
  media_url: `/media/${n}.webp`,
  url: `/media/${n}.webp`,
  thumbnail_url: null,
  created_at: "2026-11-25T00:00:00.000Z",
  description: `Scene ${n}`,
  source: "story",
  story_id: STORY,
  story_title: "Harbour",
  file_extension: "webp",
  message_id: null,
});

function open(saved: StoryCard) {
  const calls = mockFetch((call) =>
    call.method === "PUT"
      ? json({ success: true, card: saved })
      : call.path === "/api/user/images"
        ? json({ success: true, images: [image(1), image(2)] })
        : json({ success: true, cards: [saved] }),
  );
  render(
    <Providers auth={SIGNED_IN}>
      <StoryCardsDialog storyId={STORY} start={{ card: saved }} onClose={() => {}} />
    </Providers>,
  );
  return calls;
}

const sent = async (calls: ReturnType<typeof mockFetch>) => {
  fireEvent.click(screen.getByRole("button", { name: "Save card" }));
  await waitFor(() => expect(calls.some((c) => c.method === "PUT")).toBe(true));
  return calls.find((c) => c.method === "PUT")!.body as Record<string, unknown>;
};

describe("Story Cards: more pictures of a character", () => {
  beforeEach(() => {
    Object.defineProperty(HTMLElement.prototype, "scrollIntoView", { configurable: true, value: vi.fn() });
  });

  it("shows the card's pictures after the portrait; moving, removing and adding send the whole list", async () => {
    const calls = open(card([PORTRAIT, SIDE, OUTFIT]));
    expect(screen.getByAltText("Picture 2").getAttribute("src")).toBe(SIDE.url);
    expect(screen.getByAltText("Picture 3").getAttribute("src")).toBe(OUTFIT.url);

    fireEvent.click(screen.getByRole("button", { name: "Move picture 3 earlier" }));
    expect(screen.getByAltText("Picture 2").getAttribute("src")).toBe(OUTFIT.url);
    fireEvent.click(screen.getByRole("button", { name: "Remove picture 3" }));
    expect(screen.queryByAltText("Picture 3")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Add from gallery" }));
    fireEvent.click(await screen.findByRole("button", { name: "Add image 2 to the card's pictures" }));
    expect(screen.getByAltText("Picture 3").getAttribute("src")).toBe("/media/2.webp");

    const file = new File([new Uint8Array([137, 80, 78, 71])], "back.png", { type: "image/png" });
    fireEvent.change(screen.getByLabelText("Upload a picture"), { target: { files: [file] } });
    await screen.findByAltText("Picture 4");
    // Four pictures: a card holds no more.
    expect(screen.queryByRole("button", { name: "Add from gallery" })).toBeNull();
    expect(screen.getByText("A card holds at most 4 pictures, the portrait included.")).toBeTruthy();

    const body = await sent(calls);
    expect(body.portrait).toBeUndefined();
    expect(body.references).toEqual([
      { gallery_item_id: "gal-1" },
      { kept_url: OUTFIT.url },
      { gallery_item_id: "img-2" },
      { data: expect.stringMatching(/^data:image\/png;base64,/), name: "back.png" },
    ]);
  });

  it("sends no pictures at all when none changed", async () => {
    const calls = open(card([PORTRAIT, SIDE]));
    const body = await sent(calls);
    expect(body).not.toHaveProperty("references");
    expect(body).not.toHaveProperty("portrait");
  });

  it("without the portrait, the list starts with the next picture", async () => {
    const calls = open(card([PORTRAIT, SIDE, OUTFIT]));
    fireEvent.click(screen.getByRole("button", { name: "Remove portrait" }));
    fireEvent.click(screen.getByRole("button", { name: "Remove picture 2" }));
    const body = await sent(calls);
    expect(body.references).toEqual([{ kept_url: OUTFIT.url }]);
  });
});
