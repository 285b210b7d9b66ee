import { formatStorageBytes } from "@storyverse/contract/media";
import { afterEach, describe, expect, it } from "vitest";
import { formatBytes } from "./format";
import { setLanguage } from "./i18n";

const SIZES = [0, 12, 1023, 1024, 348_160, 5_452_595, 1024 * 1024 * 1024, 2_254_857_830];

describe("formatBytes", () => {
  afterEach(async () => {
    await setLanguage("en");
  });

  it("words a size in English exactly as the server's formatStorageBytes does", () => {
    for (const bytes of SIZES) expect(formatBytes(bytes)).toBe(formatStorageBytes(bytes));
  });

  it("writes the number the German way and keeps the unit", async () => {
    await setLanguage("de");
    expect(formatBytes(5_452_595)).toBe("5,2 MB");
    expect(formatBytes(2_254_857_830)).toBe("2,1 GB");
    expect(formatBytes(348_160)).toBe("340 KB");
    expect(formatBytes(12)).toBe("12 B");
  });
});
