import { describe, expect, it } from "vitest";
import { byLastActivity, lastActivityLabel, messageCountLabel } from "./story-filter";

describe("card labels", () => {
  it("reads 'New' for a story without messages, else the last activity date", () => {
    const base = { last_updated: "2026-03-05T10:00:00Z", updated_at: "2026-03-01T10:00:00Z" };
    expect(lastActivityLabel({ ...base, message_count: 0 })).toBe("New");
    expect(lastActivityLabel({ ...base, message_count: 2 })).toBe("Mar 5, 2026");
  });

  it("counts messages, 0 by default", () => {
    expect(messageCountLabel(undefined)).toBe("0 messages");
    expect(messageCountLabel(1)).toBe("1 message");
    expect(messageCountLabel(12)).toBe("12 messages");
    expect(messageCountLabel(1250)).toBe("1,250 messages");
  });
});

describe("the list order", () => {
  it("puts the most recently played story first", () => {
    const older = { title: "a", last_updated: "2026-01-01T00:00:00Z" };
    const newer = { title: "b", last_updated: "2026-02-01T00:00:00Z" };
    expect(byLastActivity([older, newer]).map((s) => s.title)).toEqual(["b", "a"]);
  });
});
