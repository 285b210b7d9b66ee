import { fireEvent, render, screen } from "@testing-library/react";
import { Download } from "lucide-react";
import { describe, expect, it, vi } from "vitest";
import { Button } from "./button";

const icon = <Download data-testid="icon" aria-hidden="true" />;

describe("Button", () => {
  it("is a plain button (never a form submit by accident) that can be pressed", () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Save</Button>);
    const button = screen.getByRole<HTMLButtonElement>("button", { name: "Save" });
    expect(button.type).toBe("button");
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it("while loading shows a spinner in place of its icon, is busy and cannot be pressed", () => {
    const onClick = vi.fn();
    const { container, rerender } = render(
      <Button icon={icon} onClick={onClick}>
        Export
      </Button>,
    );
    expect(screen.queryByTestId("icon")).not.toBeNull();
    expect(container.querySelector(".animate-spin")).toBeNull();

    rerender(
      <Button loading icon={icon} onClick={onClick}>
        Export
      </Button>,
    );
    const button = screen.getByRole<HTMLButtonElement>("button", { name: "Export" });
    expect(button.disabled).toBe(true);
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(screen.queryByTestId("icon")).toBeNull();
    expect(container.querySelector(".animate-spin")).not.toBeNull();
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it("says the busy label while loading when one is given", () => {
    render(
      <Button loading loadingText="Saving…">
        Save
      </Button>,
    );
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Saving…" }).disabled).toBe(true);
    expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
  });
});
