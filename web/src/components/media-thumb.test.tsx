// A thumbnail while it loads shows a soft placeholder, never the browser's broken-image icon (issue 45 item 9):
// no img without a src, the picture faded in once loaded, a quiet icon when it cannot load.
import { fireEvent, render } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { MediaThumb } from "./media-thumb";

describe("MediaThumb", () => {
  it("shows a placeholder until the picture has loaded, then the picture alone", () => {
    const { container } = render(<MediaThumb src="/media/1.thumb.webp" type="image" alt="A fox" eager />);
    const img = container.querySelector("img")!;
    expect(img.getAttribute("src")).toBe("/media/1.thumb.webp");
    expect(img.className).toContain("opacity-0");
    expect(container.querySelector("[data-placeholder]")).not.toBeNull();
    fireEvent.load(img);
    expect(img.className).toContain("opacity-100");
    expect(container.querySelector("[data-placeholder]")).toBeNull();
  });

  it("puts no img on the page before it is scrolled near (an img without a src shows a broken icon)", () => {
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    const { container, getByText } = render(
      <MediaThumb src="/media/2.thumb.webp" type="image" alt="Later" />,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("[data-placeholder]")).not.toBeNull();
    expect(getByText("Later").className).toContain("sr-only");
    vi.unstubAllGlobals();
  });

  it("becomes a quiet placeholder icon when the picture cannot load", () => {
    const { container } = render(<MediaThumb src="/media/expired.webp" type="image" alt="Gone" eager />);
    fireEvent.error(container.querySelector("img")!);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("svg")).not.toBeNull();
  });
});
