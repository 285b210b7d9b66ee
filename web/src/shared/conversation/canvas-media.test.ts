import type { ChatMessage } from "@storyverse/contract/chat";
import { describe, expect, it } from "vitest";
import { applyCanvasMedia, canvasMediaFor, newestMediaMessage } from "./canvas-media";

function message(id: string, timestamp: string, media: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    _id: id,
    message_id: id,
    role: "assistant",
    content: "…",
    timestamp,
    created_at: timestamp,
    mode: "image",
    image_url: null,
    video_url: null,
    media_status: "none",
    media_error: null,
    ...media,
  };
}

describe("the canvas media", () => {
  it("is the newest message with media, by timestamp, whatever the order of the list", () => {
    const messages = [
      message("b", "2026-01-02T00:00:00Z", { image_url: "/b.png" }),
      message("c", "2026-01-03T00:00:00Z"),
      message("a", "2026-01-01T00:00:00Z", { image_url: "/a.png" }),
    ];
    expect(newestMediaMessage(messages)?.id).toBe("b");
    expect(newestMediaMessage([message("x", "2026-01-01T00:00:00Z")])).toBeNull();
  });

  it("is in video mode when the media has a video, keeping the image as the fallback", () => {
    expect(
      canvasMediaFor(message("v", "2026-01-01T00:00:00Z", { image_url: "/v.png", video_url: "/v.mp4" })),
    ).toEqual({
      image: "/v.png",
      video: "/v.mp4",
      isVideoMode: true,
      lastUpdated: "2026-01-01T00:00:00Z",
    });
    expect(canvasMediaFor(message("i", "2026-01-01T00:00:00Z", { image_url: "/i.png" }))?.isVideoMode).toBe(
      false,
    );
    expect(canvasMediaFor(message("n", "2026-01-01T00:00:00Z"))).toBeNull();
  });

  it("ignores media older than what it shows unless forced", () => {
    const current = {
      image: "/new.png",
      video: null,
      isVideoMode: false,
      lastUpdated: "2026-01-02T00:00:00Z",
    };
    const older = { image: "/old.png", video: null, isVideoMode: false, lastUpdated: "2026-01-01T00:00:00Z" };
    const newer = {
      image: "/newer.png",
      video: null,
      isVideoMode: false,
      lastUpdated: "2026-01-03T00:00:00Z",
    };
    const refreshed = { ...current, image: "/new.png?sig=fresh" };
    expect(applyCanvasMedia(current, older)).toBe(current);
    expect(applyCanvasMedia(current, older, { force: true })).toBe(older);
    expect(applyCanvasMedia(current, newer)).toBe(newer);
    // The same media under a freshly signed address replaces the old one.
    expect(applyCanvasMedia(current, refreshed)).toBe(refreshed);
    // Nothing new keeps the canvas, unless the story really has no media (forced clear).
    expect(applyCanvasMedia(current, null)).toBe(current);
    expect(applyCanvasMedia(current, null, { force: true })).toBeNull();
    expect(applyCanvasMedia(null, older)).toBe(older);
  });
});
