import type { ChatMode } from "@storyverse/contract/chat";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { useBatchSize, useChatMode } from "../use-chat-preferences";
import { ChatInput } from "./chat-input";

function Harness({
  onSend,
  busy = false,
  withBatch = false,
}: {
  onSend: (text: string, mode: ChatMode) => Promise<boolean>;
  busy?: boolean;
  withBatch?: boolean;
}) {
  const [mode, setMode] = useChatMode();
  const [batch, setBatch] = useBatchSize();
  return (
    <ChatInput
      mode={mode}
      onModeChange={setMode}
      onSend={onSend}
      busy={busy}
      voiceEnabled={false}
      batch={withBatch ? { value: batch, onChange: setBatch } : null}
    />
  );
}

function renderInput(props: Partial<Parameters<typeof Harness>[0]> = {}, remaining = 15) {
  mockFetch(({ path }) =>
    path === "/api/credit-balance"
      ? json({ remaining, unlimited: remaining === -1 })
      : json({ detail: "no" }, 404),
  );
  const onSend = props.onSend ?? vi.fn(async () => true);
  const view = render(
    <Providers
      auth={{ ...SIGNED_IN, user: SIGNED_IN.user && { ...SIGNED_IN.user, credits_remaining: remaining } }}
    >
      <Harness {...props} onSend={onSend} />
    </Providers>,
  );
  return { onSend, view };
}

const box = () => screen.getByLabelText("Message") as HTMLTextAreaElement;

describe("the chat input", () => {
  it("sends on Enter and adds a line on Shift+Enter", async () => {
    const { onSend } = renderInput();
    fireEvent.change(box(), { target: { value: "Open the door" } });
    fireEvent.keyDown(box(), { key: "Enter", shiftKey: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box(), { key: "Enter" });
    await waitFor(() => expect(onSend).toHaveBeenCalledWith("Open the door", "image"));
    expect(box().value).toBe("");
  });

  it("does not send blank text or while a turn is under way", () => {
    const { onSend, view } = renderInput();
    fireEvent.change(box(), { target: { value: "   " } });
    fireEvent.keyDown(box(), { key: "Enter" });
    expect((screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled).toBe(true);
    view.unmount();
    const busy = renderInput({ busy: true });
    fireEvent.change(box(), { target: { value: "Hello" } });
    fireEvent.keyDown(box(), { key: "Enter" });
    expect((screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement).disabled).toBe(true);
    expect(busy.onSend).not.toHaveBeenCalled();
    expect(onSend).not.toHaveBeenCalled();
  });

  it("gives the words back when the send fails", async () => {
    const onSend = vi.fn(async () => false);
    renderInput({ onSend });
    fireEvent.change(box(), { target: { value: "Lost words" } });
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    await waitFor(() => expect(box().value).toBe("Lost words"));
  });

  it("remembers the mode under chatMode, image by default", () => {
    const { view } = renderInput();
    expect(screen.getByRole("button", { name: "Image" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Video" }));
    expect(localStorage.getItem("chatMode")).toBe("video");
    expect(screen.getByRole("button", { name: "Video" }).getAttribute("aria-pressed")).toBe("true");
    view.unmount();
    renderInput();
    expect(screen.getByRole("button", { name: "Video" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("remembers the batch size under batchSize", () => {
    const { view } = renderInput({ withBatch: true });
    const select = screen.getByLabelText("Batch") as HTMLSelectElement;
    expect(select.value).toBe("1");
    fireEvent.change(select, { target: { value: "3" } });
    expect(localStorage.getItem("batchSize")).toBe("3");
    view.unmount();
    renderInput({ withBatch: true });
    expect((screen.getByLabelText("Batch") as HTMLSelectElement).value).toBe("3");
  });

  it("prices a turn in the chosen mode ('credit' for 1, decimals kept)", async () => {
    renderInput();
    expect(await screen.findByText("1.5 credits")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Chat" }));
    expect(await screen.findByText("0.5 credits")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Video" }));
    expect(await screen.findByText("3 credits")).toBeTruthy();
  });

  it("hides the price for unlimited accounts", async () => {
    renderInput({}, -1);
    await act(async () => {});
    expect(screen.queryByText(/credits?$/)).toBeNull();
  });

  it("grows with the text up to 200 px", () => {
    renderInput();
    const textarea = box();
    Object.defineProperty(textarea, "scrollHeight", { configurable: true, get: () => 120 });
    fireEvent.change(textarea, { target: { value: "a\nb\nc" } });
    expect(textarea.style.height).toBe("120px");
    Object.defineProperty(textarea, "scrollHeight", { configurable: true, get: () => 640 });
    fireEvent.change(textarea, { target: { value: "a\nb\nc\nd\ne\nf\ng\nh\ni\nj" } });
    expect(textarea.style.height).toBe("200px");
    expect(textarea.style.overflowY).toBe("auto");
  });

  it("has no microphone when voice input is off", () => {
    renderInput();
    expect(screen.queryByRole("button", { name: "Record a voice message" })).toBeNull();
  });
});

describe("ChatInput: Do / Say / Story", () => {
  it("offers the three input modes when a story gives it the control, and asks accordingly", () => {
    mockFetch(() => json({ remaining: 15, unlimited: false }));
    const onChange = vi.fn();
    const { rerender } = render(
      <Providers auth={SIGNED_IN}>
        <ChatInput
          mode="image"
          onModeChange={() => {}}
          onSend={async () => true}
          busy={false}
          voiceEnabled={false}
          inputMode={{ value: "do", onChange }}
        />
      </Providers>,
    );
    const doButton = screen.getByRole("button", { name: "Do" });
    expect(doButton.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByPlaceholderText("What do you do?")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Say" }));
    expect(onChange).toHaveBeenCalledWith("say");
    rerender(
      <Providers auth={SIGNED_IN}>
        <ChatInput
          mode="image"
          onModeChange={() => {}}
          onSend={async () => true}
          busy={false}
          voiceEnabled={false}
          inputMode={{ value: "say", onChange }}
        />
      </Providers>,
    );
    expect(screen.getByRole("button", { name: "Say" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByPlaceholderText("What do you say?")).toBeTruthy();
  });

  it("has no input modes in the main chat", () => {
    renderInput();
    expect(screen.queryByRole("button", { name: "Say" })).toBeNull();
  });
});
