import { describe, expect, it } from "vitest";
import { storyChatRequest } from "./api/send-story-message";
import { MAX_SELECTED_IMAGES, refreshSelection, toggleSelection } from "./selection";

describe("selected story images", () => {
  it("toggle on and off per message, with the spec's id", () => {
    const on = toggleSelection([], "m1", "/m1.png");
    expect(on).toEqual({ selected: [{ id: "story-m1", url: "/m1.png", messageId: "m1" }], error: null });
    expect(toggleSelection(on.selected, "m1", "/m1.png")).toEqual({ selected: [], error: null });
  });

  it("stop at ten", () => {
    let selected = toggleSelection([], "m0", "/0.png").selected;
    for (let n = 1; n < MAX_SELECTED_IMAGES; n++)
      selected = toggleSelection(selected, `m${n}`, `/${n}.png`).selected;
    expect(selected).toHaveLength(10);
    const eleventh = toggleSelection(selected, "m10", "/10.png");
    expect(eleventh.selected).toHaveLength(10);
    expect(eleventh.error).toBe("Maximum 10 images can be selected for Seedream-4 input");
  });

  it("carry the conversation's current (freshly signed) URL, and drop images whose message is gone", () => {
    const selected = [
      { id: "story-a", url: "/a.png?old", messageId: "a" },
      { id: "story-b", url: "/b.png?old", messageId: "b" },
    ];
    const urls: Record<string, string> = { a: "/a.png?fresh" };
    expect(refreshSelection(selected, (id) => urls[id] ?? null)).toEqual([
      { id: "story-a", url: "/a.png?fresh", messageId: "a" },
    ]);
  });
});

describe("a story turn's request", () => {
  const selectedImages = [{ id: "story-a", url: "/a.png", messageId: "a" }];

  it("always asks for one picture and sends the selected images in image mode only", () => {
    expect(storyChatRequest({ prompt: "Go", mode: "image", selectedImages })).toEqual({
      prompt: "Go",
      generate_video: false,
      chat_mode: "image",
      batchSize: 1,
      inputImages: [{ id: "story-a", url: "/a.png", messageId: "a" }],
    });
    expect(storyChatRequest({ prompt: "Go", mode: "video", selectedImages })).toEqual({
      prompt: "Go",
      generate_video: true,
      chat_mode: "video",
      batchSize: 1,
    });
    expect(storyChatRequest({ prompt: "Go", mode: "chat", selectedImages }).inputImages).toBeUndefined();
    expect(storyChatRequest({ prompt: "Go", mode: "image", selectedImages: [] }).inputImages).toBeUndefined();
  });
});
