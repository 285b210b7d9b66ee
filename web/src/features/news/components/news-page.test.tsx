import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { NewsPage } from "./news-page";

describe("Updates & News", () => {
  it("lists the credit prices, the free credits and the packs", () => {
    render(<NewsPage onOpen={() => {}} />);
    expect(screen.getByRole("heading", { level: 1, name: "Updates & News" })).toBeTruthy();
    for (const price of ["0.5 credits", "1.5 credits", "3.0 credits"])
      expect(screen.getByText(price)).toBeTruthy();
    expect(screen.getByText("15 free credits for every new account")).toBeTruthy();
    for (const [name, price, credits] of [
      ["Starter Pack", "$10", "100 credits"],
      ["Pro Pack", "$25", "275 credits"],
      ["Expert Pack", "$50", "600 credits"],
    ] as const) {
      const card = screen.getByText(name).closest("li");
      expect(card?.textContent).toContain(price);
      expect(card?.textContent).toContain(credits);
    }
    expect(screen.getByText("+25 bonus")).toBeTruthy();
    expect(screen.getByText("+100 bonus")).toBeTruthy();
  });

  it("describes the features, quick start and tips, weekly updates and where support and billing are", () => {
    const onOpen = vi.fn();
    render(<NewsPage onOpen={onOpen} />);
    for (const feature of ["Stories", "Studio", "Gallery"]) {
      expect(screen.getByRole("heading", { level: 3, name: feature })).toBeTruthy();
    }
    expect(screen.getByRole("heading", { name: "Quick start" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Tips" })).toBeTruthy();
    expect(screen.getAllByText(/updated weekly/i).length).toBeGreaterThan(0);
    expect(screen.getByText(/profile in the sidebar or the account menu/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Open Studio" }));
    fireEvent.click(screen.getByRole("button", { name: "Manage Credits" }));
    expect(onOpen.mock.calls).toEqual([["studio"], ["subscription"]]);
  });
});
