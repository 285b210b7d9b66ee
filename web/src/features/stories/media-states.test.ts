import { describe, expect, it } from "vitest";
import {
  pruneStoryMediaStates,
  readStoryMediaState,
  readStoryMediaStates,
  removeStoryMediaState,
  saveStoryMediaState,
} from "./media-states";

const image = { image: "/a.png", video: null, isVideoMode: false, lastUpdated: "2026-01-01T00:00:00Z" };
const video = { image: "/b.png", video: "/b.mp4", isVideoMode: true, lastUpdated: "2026-01-02T00:00:00Z" };

describe("per-story media states (story_media_states)", () => {
  it("are kept per story under the spec's key", () => {
    saveStoryMediaState("s1", image);
    saveStoryMediaState("s2", video);
    expect(readStoryMediaState("s1")).toEqual(image);
    expect(readStoryMediaState("s2")).toEqual(video);
    expect(readStoryMediaState("s3")).toBeNull();
    expect(JSON.parse(localStorage.getItem("story_media_states") ?? "{}")).toEqual({ s1: image, s2: video });
  });

  it("forget a story when saved as null or removed", () => {
    saveStoryMediaState("s1", image);
    saveStoryMediaState("s2", video);
    saveStoryMediaState("s1", null);
    expect(readStoryMediaStates()).toEqual({ s2: video });
    removeStoryMediaState("s2");
    expect(readStoryMediaStates()).toEqual({});
  });

  it("are pruned to the stories that still exist", () => {
    saveStoryMediaState("kept", image);
    saveStoryMediaState("deleted", video);
    pruneStoryMediaStates(["kept", "another"]);
    expect(readStoryMediaStates()).toEqual({ kept: image });
  });

  it("survive a corrupted entry without losing the others", () => {
    localStorage.setItem("story_media_states", JSON.stringify({ good: image, bad: { image: 5 } }));
    expect(readStoryMediaStates()).toEqual({ good: image });
    localStorage.setItem("story_media_states", "not json");
    expect(readStoryMediaStates()).toEqual({});
  });
});
