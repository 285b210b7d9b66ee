import { describe, expect, it } from "vitest";
import { closeOpenEmphasis } from "./streaming-markdown";

describe("closeOpenEmphasis", () => {
  it("closes an emphasis the narrator has opened but not yet closed", () => {
    expect(closeOpenEmphasis("The story of *The")).toBe("The story of *The*");
    expect(closeOpenEmphasis("A **heavy door")).toBe("A **heavy door**");
  });

  it("closes nested markers innermost first", () => {
    expect(closeOpenEmphasis("**bold *and it")).toBe("**bold *and it***");
    expect(closeOpenEmphasis("*it **and bold")).toBe("*it **and bold***");
  });

  it("holds back a marker with no words after it yet", () => {
    expect(closeOpenEmphasis("The story of *")).toBe("The story of ");
    expect(closeOpenEmphasis("The story of **")).toBe("The story of ");
  });

  it("leaves closed emphasis, list items, escaped asterisks and earlier paragraphs alone", () => {
    expect(closeOpenEmphasis("The *old* gate")).toBe("The *old* gate");
    expect(closeOpenEmphasis("* a lantern\n* a rope")).toBe("* a lantern\n* a rope");
    expect(closeOpenEmphasis("five \\* three")).toBe("five \\* three");
    expect(closeOpenEmphasis("An *odd one\n\nThe next")).toBe("An *odd one\n\nThe next");
  });
});
