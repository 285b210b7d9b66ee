// A download's file name header: ASCII fallback plus the UTF-8 name, for any title (quotes, emoji, a lone
// surrogate half), never a throw.
import { describe, expect, it } from "vitest";
import { attachmentDisposition } from "./attachment";

describe("attachmentDisposition", () => {
  it("gives an ASCII fallback and the UTF-8 name", () => {
    expect(attachmentDisposition('Mara "the Bold" 🐉.png')).toBe(
      `attachment; filename="Mara _the Bold_ __.png"; filename*=UTF-8''Mara%20%22the%20Bold%22%20%F0%9F%90%89.png`,
    );
  });

  it("makes a header of a name with half a surrogate pair instead of throwing", () => {
    expect(attachmentDisposition("Ash\uD83D.json")).toBe(
      `attachment; filename="Ash_.json"; filename*=UTF-8''Ash%EF%BF%BD.json`,
    );
  });
});
