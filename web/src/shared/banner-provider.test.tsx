import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { BANNER_TIMEOUT_MS, BannerProvider, useBanner } from "./banner-provider";

function Buttons() {
  const { showError, showSuccess } = useBanner();
  return (
    <>
      <button type="button" onClick={() => showError("Something broke")}>
        error
      </button>
      <button type="button" onClick={() => showSuccess("All saved")}>
        success
      </button>
    </>
  );
}

const renderBanners = () =>
  render(
    <BannerProvider>
      <Buttons />
    </BannerProvider>,
  );

describe("banners", () => {
  it("shows an error and a success banner at once and clears each after 5 seconds", async () => {
    vi.useFakeTimers();
    renderBanners();
    fireEvent.click(screen.getByRole("button", { name: "error" }));
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    fireEvent.click(screen.getByRole("button", { name: "success" }));
    expect(screen.getByRole("alert").textContent).toContain("Something broke");
    expect(screen.getByRole("status").textContent).toContain("All saved");

    await act(() => vi.advanceTimersByTimeAsync(BANNER_TIMEOUT_MS - 2_000));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("status")).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("restarts the 5 seconds when the same message comes again", async () => {
    vi.useFakeTimers();
    renderBanners();
    fireEvent.click(screen.getByRole("button", { name: "error" }));
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    fireEvent.click(screen.getByRole("button", { name: "error" }));
    await act(() => vi.advanceTimersByTimeAsync(4_000));
    expect(screen.getByRole("alert")).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("is dismissed by a click", () => {
    renderBanners();
    fireEvent.click(screen.getByRole("button", { name: "error" }));
    fireEvent.click(screen.getByRole("button", { name: /Something broke/ }));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
