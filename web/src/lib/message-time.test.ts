import { describe, expect, it } from "vitest";
import { formatMessageTime } from "./message-time";

describe("a message's time", () => {
  const at = new Date(2026, 2, 5, 14, 7);

  it("shows the clock time, or the date and time in full", () => {
    expect(formatMessageTime(at.toISOString(), "clock")).toBe("2:07 PM");
    expect(formatMessageTime(at.toISOString(), "full")).toBe(at.toLocaleString());
  });

  it("shows nothing for a timestamp that cannot be read", () => {
    expect(formatMessageTime("not a date", "clock")).toBe("");
    expect(formatMessageTime("", "full")).toBe("");
  });
});
