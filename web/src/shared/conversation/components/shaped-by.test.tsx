// "What shaped this" under a story's narrator message: closed until asked, then the cards (those whose portrait
// painted the scene marked), Memory, Summary and the reference images; "Only the story so far" when nothing did.
import type { ChatMessage, ShapedBy } from "@storyverse/contract/chat";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { type MessageCraft, MessageList } from "./message-list";
import { WhatShapedThis } from "./shaped-by";

function message(role: ChatMessage["role"], id: string, shapedBy?: ShapedBy): ChatMessage {
  const at = "2026-11-25T18:00:00.000Z";
  return {
    id,
    _id: id,
    message_id: id,
    role,
    content: role === "user" ? "I salute the captain" : "The captain salutes back.",
    timestamp: at,
    created_at: at,
    mode: "chat",
    image_url: null,
    video_url: null,
    media_status: "none",
    media_error: null,
    ...(shapedBy ? { shaped_by: shapedBy } : {}),
  };
}

const craft: MessageCraft = {
  busy: false,
  onRetry: vi.fn(),
  onUndo: vi.fn(),
  onContinue: vi.fn(),
  onEdit: vi.fn(async () => true),
  onSelectVersion: vi.fn(),
};

/** A story's log with its craft buttons (their prices read the balance). */
function renderLog(messages: ChatMessage[]) {
  mockFetch(({ path }) =>
    path === "/api/credit-balance" ? json({ remaining: 15, unlimited: false }) : json({ detail: "no" }, 404),
  );
  return render(
    <Providers auth={SIGNED_IN}>
      <MessageList
        messages={messages}
        craft={craft}
        pollingStopped={new Map()}
        sending={null}
        onPreview={() => {}}
        onMediaError={() => {}}
      />
    </Providers>,
  );
}

describe("What shaped this", () => {
  it("reveals the cards, marking the portrait used, the Memory, the summary and the reference images", () => {
    renderLog([
      message("user", "u1"),
      message("assistant", "a1", {
        cards: [
          { id: "c1", name: "Captain Rell", portrait_used: true },
          { id: "c2", name: "Lighthouse", portrait_used: false },
        ],
        memory: true,
        summary: true,
        references: 2,
        recalled: [5, 9, 41],
      }),
    ]);
    const toggle = screen.getByRole("button", { name: "What shaped this" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("Captain Rell")).toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const lines = within(screen.getByRole("list", { name: "What shaped this" }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(lines).toEqual([
      "Captain Rell(portrait used)",
      "Lighthouse",
      "Memory",
      "Recalled turns 5, 9 and 41",
      "Summary",
      "2 reference images",
    ]);

    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("Captain Rell")).toBeNull();
  });

  it("is not offered on a message that recorded nothing (the player's, or one written before)", () => {
    renderLog([message("user", "u1"), message("assistant", "a1")]);
    expect(screen.queryByRole("button", { name: "What shaped this" })).toBeNull();
  });

  it("says when only the story so far shaped the message", () => {
    render(<WhatShapedThis shapedBy={{ cards: [], memory: false, summary: false, references: 0 }} />);
    fireEvent.click(screen.getByRole("button", { name: "What shaped this" }));
    expect(screen.getByText("Only the story so far")).not.toBeNull();
  });

  it("speaks German: the log, a retried answer's versions, its actions and what shaped it", async () => {
    await setLanguage("de");
    renderLog([
      message("user", "u1"),
      {
        ...message("assistant", "a1", {
          cards: [{ id: "c1", name: "Captain Rell", portrait_used: true }],
          memory: true,
          summary: false,
          references: 2,
          recalled: [5, 1250],
        }),
        version: 2,
        version_count: 3,
        stopped: true,
      },
    ]);
    expect(screen.getByRole("log", { name: "Unterhaltung" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Nachricht bearbeiten" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "Erzähler, Version 2 von 3" })).toBeTruthy();
    expect(screen.getByText("2 / 3")).toBeTruthy();
    expect(screen.getByText("Gestoppt: Nur der Text wurde berechnet.")).toBeTruthy();
    for (const name of ["Vorherige Version", "Bearbeiten", "Wiederholen", "Rückgängig"]) {
      expect(screen.getByRole("button", { name })).toBeTruthy();
    }

    fireEvent.click(screen.getByRole("button", { name: "Was hier eingeflossen ist" }));
    const lines = within(screen.getByRole("list", { name: "Was hier eingeflossen ist" }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(lines).toEqual([
      "Captain Rell(Porträt verwendet)",
      "Gedächtnis",
      "Abgerufene Züge 5 und 1.250",
      "2 Referenzbilder",
    ]);
  });
});
