// Editing the player's line (issue #43): the box grows with the words, and on the line of the newest exchange
// "Save and regenerate" saves the words and retries the answer below, priced on the button; an older line has
// only Save. A narrator's answer may be edited whole past the 4,000 characters a player's line is held to.
import type { ChatMessage } from "@storyverse/contract/chat";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { type MessageCraft, MessageList } from "./message-list";

function message(
  role: ChatMessage["role"],
  id: string,
  content: string,
  mode: ChatMessage["mode"],
): ChatMessage {
  const at = "2026-11-25T18:00:00.000Z";
  return {
    id,
    _id: id,
    message_id: id,
    role,
    content,
    timestamp: at,
    created_at: at,
    mode,
    image_url: null,
    video_url: null,
    media_status: "none",
    media_error: null,
  };
}

const LOG = [
  message("user", "u1", "I light the lamp", "chat"),
  message("assistant", "a1", "The lamp sputters.", "chat"),
  message("user", "u2", "I climb the tower", "image"),
  message("assistant", "a2", "The stairs wind up into the dark.", "image"),
];

function renderLog(craft: MessageCraft) {
  mockFetch(({ path }) =>
    path === "/api/credit-balance" ? json({ remaining: 15, unlimited: false }) : json({ detail: "no" }, 404),
  );
  return render(
    <Providers auth={SIGNED_IN}>
      <MessageList
        messages={LOG}
        craft={craft}
        pollingStopped={new Map()}
        sending={null}
        onPreview={() => {}}
        onMediaError={() => {}}
      />
    </Providers>,
  );
}

const craftWith = (): MessageCraft => ({
  busy: false,
  onRetry: vi.fn(),
  onUndo: vi.fn(),
  onContinue: vi.fn(),
  onEdit: vi.fn(async () => true),
  onSelectVersion: vi.fn(),
});

describe("Save and regenerate", () => {
  it("saves the edited line of the newest exchange, then retries the answer below at the answer's price", async () => {
    const craft = craftWith();
    renderLog(craft);
    const edits = screen.getAllByRole("button", { name: "Edit message" });
    fireEvent.click(edits.at(-1)!);
    const box = screen.getByRole("textbox", { name: "Edit message" }) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "I climb the tower, slowly" } });
    // An image answer: the button says what the retry of a scene costs.
    const regenerate = await screen.findByRole("button", { name: /^Save and regenerate 1.5 credits/ });
    fireEvent.click(regenerate);
    await waitFor(() => expect(craft.onRetry).toHaveBeenCalledWith("a2", "both"));
    expect(craft.onEdit).toHaveBeenCalledWith("u2", "I climb the tower, slowly");
    expect(vi.mocked(craft.onEdit).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(craft.onRetry).mock.invocationCallOrder[0]!,
    );
  });

  it("does not retry when the save is refused, and offers only Save on an older line", async () => {
    const craft = { ...craftWith(), onEdit: vi.fn(async () => false) };
    renderLog(craft);
    fireEvent.click(screen.getAllByRole("button", { name: "Edit message" }).at(-1)!);
    fireEvent.change(screen.getByRole("textbox", { name: "Edit message" }), { target: { value: "Changed" } });
    fireEvent.click(await screen.findByRole("button", { name: /^Save and regenerate/ }));
    await waitFor(() => expect(craft.onEdit).toHaveBeenCalled());
    expect(craft.onRetry).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));

    fireEvent.click(screen.getAllByRole("button", { name: "Edit message" })[0]!);
    expect(screen.getByRole("button", { name: "Save" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Save and regenerate/ })).toBeNull();
  });

  it("grows the box with the words instead of keeping 3 rows", () => {
    renderLog(craftWith());
    fireEvent.click(screen.getAllByRole("button", { name: "Edit message" })[0]!);
    const box = screen.getByRole("textbox", { name: "Edit message" }) as HTMLTextAreaElement;
    expect(box.rows).toBeGreaterThanOrEqual(4);
    Object.defineProperty(box, "scrollHeight", { configurable: true, get: () => 300 });
    fireEvent.change(box, { target: { value: "line\n".repeat(12) } });
    expect(box.style.height).toBe("302px");
    Object.defineProperty(box, "scrollHeight", { configurable: true, get: () => 900 });
    fireEvent.change(box, { target: { value: "line\n".repeat(40) } });
    expect(box.style.height).toBe("480px");
    expect(box.style.overflowY).toBe("auto");
  });
});

describe("how long an edit may be", () => {
  it("takes a narrator's answer longer than a player's line, and holds the player's line to 4,000", () => {
    renderLog(craftWith());
    // The narrator's newest answer, made longer than anything a player may type.
    fireEvent.click(screen.getAllByRole("button", { name: /^Edit$/ }).at(-1)!);
    const answer = screen.getByRole("textbox", { name: "Edit message" });
    fireEvent.change(answer, { target: { value: "w".repeat(5_000) } });
    expect(screen.getByText("5000/32000")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));

    fireEvent.click(screen.getAllByRole("button", { name: "Edit message" }).at(-1)!);
    const line = screen.getByRole("textbox", { name: "Edit message" });
    fireEvent.change(line, { target: { value: "w".repeat(4_001) } });
    expect(screen.getByText("4001/4000")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
