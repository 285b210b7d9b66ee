// Reading along in the conversation log: it follows a streaming answer while the player is at the
// bottom, lets go when they scroll up (a "New words" pill then takes them down), and follows again once
// they are back at the bottom. jsdom does not lay out or scroll, so the log's heights and scroll
// position are played by hand here.
import type { ChatMessage } from "@storyverse/contract/chat";
import { fireEvent, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { MessageList } from "./message-list";

const VISIBLE = 400;

function message(role: ChatMessage["role"], id: string, content: string): ChatMessage {
  const at = "2026-11-25T18:00:00.000Z";
  return {
    id,
    _id: id,
    message_id: id,
    role,
    content,
    timestamp: at,
    created_at: at,
    mode: "chat",
    image_url: null,
    video_url: null,
    media_status: "none",
    media_error: null,
  };
}

/** A log whose content is `height` px tall in a 400 px window; scrollTop is clamped like a browser's. */
function fakeScrolling(log: HTMLElement) {
  const state = { height: 0, top: 0 };
  const scrollTo = vi.fn((options: ScrollToOptions) => {
    log.scrollTop = options.top ?? 0;
  });
  Object.defineProperties(log, {
    clientHeight: { configurable: true, get: () => VISIBLE },
    scrollHeight: { configurable: true, get: () => Math.max(state.height, VISIBLE) },
    scrollTop: {
      configurable: true,
      get: () => state.top,
      set: (value: number) => {
        state.top = Math.max(0, Math.min(value, Math.max(state.height, VISIBLE) - VISIBLE));
      },
    },
    scrollTo: { configurable: true, value: scrollTo },
  });
  return {
    state,
    scrollTo,
    /** The player scrolls the log to `top` (the browser then reports a scroll). */
    scrollBy: (top: number) => {
      log.scrollTop = top;
      fireEvent.scroll(log);
    },
    gap: () => Math.max(state.height, VISIBLE) - VISIBLE - state.top,
  };
}

function setup() {
  const props = {
    pollingStopped: new Map(),
    sending: null,
    onPreview: () => {},
    onMediaError: () => {},
  };
  const view = render(<MessageList messages={[]} {...props} />);
  const log = screen.getByRole("log", { name: "Conversation" });
  const scrolling = fakeScrolling(log);
  let words = "Once upon a time";
  let messages = [message("user", "u1", "I light the lamp"), message("assistant", "a1", words)];
  const show = (height: number) => {
    scrolling.state.height = height;
    view.rerender(<MessageList messages={messages} {...props} />);
  };
  return {
    scrolling,
    show,
    /** The narrator writes more words; the log grows to `height`. */
    stream: (height: number) => {
      words += " the keeper climbed the stairs";
      messages = [...messages.slice(0, -1), message("assistant", "a1", words)];
      show(height);
    },
    /** The player sends a new turn. */
    send: (height: number) => {
      messages = [...messages, message("user", `u${messages.length}`, "I look outside")];
      show(height);
    },
  };
}

const pill = () => screen.queryByRole("button", { name: "New words" });

describe("reading along", () => {
  beforeEach(() => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: false, media: query }));
  });

  it("follows the newest words while the player is at the bottom", () => {
    const { scrolling, show, stream } = setup();
    show(1000);
    expect(scrolling.gap()).toBe(0);
    for (const height of [1100, 1240, 1380]) {
      stream(height);
      expect(scrolling.gap()).toBe(0);
    }
    expect(pill()).toBeNull();
  });

  it("leaves a player who scrolled up where they are and offers the new words, which the pill brings", () => {
    const { scrolling, show, stream } = setup();
    show(1000);
    scrolling.scrollBy(250);
    stream(1200);
    expect(scrolling.state.top).toBe(250);
    expect(pill()).not.toBeNull();

    fireEvent.click(pill() as HTMLElement);
    // A smooth scroll to the newest words...
    expect(scrolling.scrollTo).toHaveBeenLastCalledWith({ top: 1200, behavior: "smooth" });
    // ...which follows words that arrive on the way, and the pill goes once it is at the bottom.
    stream(1300);
    expect(scrolling.scrollTo).toHaveBeenLastCalledWith({ top: 1300, behavior: "smooth" });
    fireEvent.scroll(screen.getByRole("log"));
    expect(scrolling.gap()).toBe(0);
    expect(pill()).toBeNull();
    stream(1450);
    expect(scrolling.gap()).toBe(0);
  });

  it("keeps following after the pill while the browser reports a position a little short of the end", () => {
    const { scrolling, show, stream } = setup();
    show(1000);
    scrolling.scrollBy(250);
    stream(1200);
    fireEvent.click(pill() as HTMLElement);
    // The smooth scroll arrives at the end...
    fireEvent.scroll(screen.getByRole("log"));
    expect(pill()).toBeNull();
    // ...then, while the next words are laid out, Chromium reads a scroll position 35 px short of where it
    // was (seen in a real browser): no gesture of the player's, so the log still follows and offers nothing.
    scrolling.state.top -= 35;
    stream(1300);
    // At the end already, the catch-up is over: the log follows at once, as before the pill.
    expect(scrolling.gap()).toBe(0);
    fireEvent.scroll(screen.getByRole("log"));
    expect(pill()).toBeNull();
    // A wheel upwards during the catch-up still lets go.
    fireEvent.wheel(screen.getByRole("log"), { deltaY: -120 });
    stream(1400);
    expect(scrolling.gap()).toBeGreaterThan(0);
    expect(pill()).not.toBeNull();
  });

  it("lets go the moment the player wheels up, before the browser reports the scroll", () => {
    const { scrolling, show, stream } = setup();
    show(1000);
    const log = screen.getByRole("log");
    fireEvent.wheel(log, { deltaY: -120 });
    stream(1200);
    expect(scrolling.state.top).toBe(600);
    expect(pill()).not.toBeNull();
  });

  it("keeps a player's scroll up that words overtook before its scroll event", () => {
    const { scrolling, show, stream } = setup();
    show(1000);
    // Moved up (say, by the scrollbar), and words arrive before the browser's scroll event.
    scrolling.state.top = 450;
    stream(1200);
    expect(scrolling.state.top).toBe(450);
    expect(pill()).not.toBeNull();
  });

  it("jumps without animation when the player asked for reduced motion", () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("reduce"), media: query }));
    const { scrolling, show, stream } = setup();
    show(1000);
    scrolling.scrollBy(100);
    stream(1200);
    fireEvent.click(pill() as HTMLElement);
    expect(scrolling.scrollTo).not.toHaveBeenCalled();
    expect(scrolling.gap()).toBe(0);
    fireEvent.scroll(screen.getByRole("log"));
    expect(pill()).toBeNull();
  });

  it("follows again once the player scrolls back to the bottom by hand", () => {
    const { scrolling, show, stream } = setup();
    show(1000);
    scrolling.scrollBy(300);
    stream(1200);
    expect(pill()).not.toBeNull();
    // Near enough to the end counts as the end.
    scrolling.scrollBy(790);
    expect(pill()).toBeNull();
    stream(1400);
    expect(scrolling.gap()).toBe(0);
  });

  it("takes the player down when they send a turn, wherever they were", () => {
    const { scrolling, show, send } = setup();
    show(1000);
    scrolling.scrollBy(200);
    send(1150);
    expect(scrolling.gap()).toBe(0);
    expect(pill()).toBeNull();
  });
});
