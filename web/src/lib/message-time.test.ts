import { describe, expect, it } from "vitest";
import { setLanguage } from "../i18n/i18n";
import { formatMessageTime } from "./message-time";

describe("a message's time", () => {
  const at = new Date(2026, 2, 5, 14, 7);

  it("shows the clock time, or the date and time in full", () => {
    expect(formatMessageTime(at.toISOString(), "clock")).toBe("2:07 PM");
    expect(formatMessageTime(at.toISOString(), "full")).toBe(at.toLocaleString());
  });

  it("follows the interface's language", async () => {
    await setLanguage("de");
    expect(formatMessageTime(at.toISOString(), "clock")).toBe("14:07");
    expect(formatMessageTime(at.toISOString(), "full")).toBe("5.3.2026, 14:07:00");
  });

  it("shows nothing for a timestamp that cannot be read", () => {
    expect(formatMessageTime("not a date", "clock")).toBe("");
    expect(formatMessageTime("", "full")).toBe("");
  });
});
