import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAROUSEL_INTERVAL_MS, type CarouselSlide, StudioCarousel } from "./studio-carousel";

const slides: CarouselSlide[] = ["one", "two", "three"].map((name) => ({
  src: `/${name}.svg`,
  alt: `Scene ${name}`,
  title: name,
  meta: "2K",
}));

const currentSlide = () => screen.getByRole("group").getAttribute("aria-label");

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Studio showcase carousel", () => {
  it("is a labelled carousel region showing one labelled slide at a time", () => {
    render(<StudioCarousel slides={slides} />);
    const region = screen.getByRole("region", { name: "Studio showcase" });
    expect(region.getAttribute("aria-roledescription")).toBe("carousel");
    expect(screen.getAllByRole("group")).toHaveLength(1);
    expect(currentSlide()).toBe("Slide 1 of 3");
  });

  it("advances every 2 seconds and wraps around", () => {
    expect(CAROUSEL_INTERVAL_MS).toBe(2000);
    render(<StudioCarousel slides={slides} />);
    act(() => vi.advanceTimersByTime(1999));
    expect(currentSlide()).toBe("Slide 1 of 3");
    act(() => vi.advanceTimersByTime(1));
    expect(currentSlide()).toBe("Slide 2 of 3");
    act(() => vi.advanceTimersByTime(2000));
    act(() => vi.advanceTimersByTime(2000));
    expect(currentSlide()).toBe("Slide 1 of 3");
  });

  it("stops when paused and jumps to a slide from its dot", () => {
    render(<StudioCarousel slides={slides} />);
    act(() => screen.getByRole("button", { name: "Pause slideshow" }).click());
    act(() => vi.advanceTimersByTime(10_000));
    expect(currentSlide()).toBe("Slide 1 of 3");
    act(() => screen.getByRole("button", { name: "Show slide 3: three" }).click());
    expect(currentSlide()).toBe("Slide 3 of 3");
    expect(screen.getByRole("button", { name: "Show slide 3: three" }).getAttribute("aria-current")).toBe(
      "true",
    );
  });
});
