import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Providers, SIGNED_IN } from "../../test/render-app";
import { useView } from "../view-provider";
import { QuotaPromptProvider, useQuotaPrompt } from "./quota-prompt-provider";

// A feature that was refused for want of credits, and the current view beside it.
let showQuotaExceeded: () => void = () => {};
function Feature() {
  showQuotaExceeded = useQuotaPrompt().showQuotaExceeded;
  const { view } = useView();
  return <p data-testid="view">{view}</p>;
}

function Bare() {
  useQuotaPrompt();
  return null;
}

function renderPrompt() {
  window.history.replaceState(null, "", "/stories");
  render(
    <Providers auth={SIGNED_IN}>
      <QuotaPromptProvider>
        <Feature />
      </QuotaPromptProvider>
    </Providers>,
  );
  act(() => showQuotaExceeded());
}

describe("Quota Exceeded dialog", () => {
  it("says the spec's words and offers View Plans and Later", async () => {
    renderPrompt();
    const dialog = await screen.findByRole("dialog", { name: "Quota Exceeded" });
    expect(dialog.textContent).toContain(
      "You've reached your free usage limit. Upgrade to continue creating amazing content.",
    );
    expect(screen.getByRole("button", { name: "View Plans" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Later" })).toBeTruthy();
  });

  it("Later closes it and stays where the user was", async () => {
    renderPrompt();
    fireEvent.click(await screen.findByRole("button", { name: "Later" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByTestId("view").textContent).toBe("stories");
  });

  it("View Plans closes it and opens credit management (the subscription view)", async () => {
    renderPrompt();
    fireEvent.click(await screen.findByRole("button", { name: "View Plans" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(screen.getByTestId("view").textContent).toBe("subscription"));
    expect(window.location.pathname).toBe("/subscription");
  });

  it("refuses to be used outside its provider", () => {
    expect(() => render(<Bare />)).toThrow("useQuotaPrompt must be used inside <QuotaPromptProvider>");
  });
});
