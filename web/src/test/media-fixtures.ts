// A gallery item as the server lists it, for the picture editor's and the clip dialog's tests.
import type { GalleryItem } from "@storyverse/contract/media";

export function makeGalleryItem(id: string, overrides: Partial<GalleryItem> = {}): GalleryItem {
  return {
    id,
    type: "image",
    media_url: `/media/${id}.png?sig=x`,
    url: `/media/${id}.png?sig=x`,
    thumbnail_url: null,
    created_at: "2026-11-29T08:00:00Z",
    description: "A harbour at dusk",
    source: "studio",
    story_id: null,
    story_title: null,
    file_extension: "png",
    message_id: null,
    favourite: false,
    boards: [],
    seed: 7,
    parent_id: null,
    ...overrides,
  };
}
