// The card macros are replaced by the names, in any letter case, and names are inserted literally.
import { describe, expect, it } from "vitest";
import { replaceMacros } from "./macros";

const names = { char: "Mira", user: "Sam" };

describe("replaceMacros", () => {
  it("replaces {{char}}/<BOT> and {{user}}/<USER> in any letter case", () => {
    expect(replaceMacros("{{char}} greets {{user}}. <BOT> waves at <USER>.", names)).toBe(
      "Mira greets Sam. Mira waves at Sam.",
    );
    expect(replaceMacros("{{CHAR}} {{Char}} <bot> {{USER}} <User>", names)).toBe("Mira Mira Mira Sam Sam");
  });

  it("leaves other braces and text alone, and inserts names with $ signs literally", () => {
    expect(replaceMacros("{{original}} {char} <b>bold</b>", names)).toBe("{{original}} {char} <b>bold</b>");
    expect(replaceMacros("Hi {{user}}", { char: "x", user: "$& $1" })).toBe("Hi $& $1");
  });

  it("inserts a name that holds a macro as it is, never replacing inside it", () => {
    expect(replaceMacros("{{char}} and {{user}}", { char: "<USER>'s twin", user: "{{char}}" })).toBe(
      "<USER>'s twin and {{char}}",
    );
  });
});
