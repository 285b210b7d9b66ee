import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeMessage } from "../../../test/story-fixtures";
import { MainChat } from "./main-chat";

describe("the main chat", () => {
  it("shows the never-ending story with its newest media on the canvas, and sends over /api/chat", async () => {
    const calls = mockFetch(({ path, method }) => {
      if (path === "/api/chat/history")
        return json({
          success: true,
          messages: [makeMessage({ id: "a", image_url: "/media/main.png", media_status: "completed" })],
        });
      if (path === "/api/chat" && method === "POST")
        return json({
          success: true,
          quota_exceeded: false,
          story_text: "The sea answers.",
          message_id: "b",
          media_generation: { status: "none", type: null },
          quota_info: { remaining: 14.5, unlimited: false, cost: 0.5, charged: 0.5 },
        });
      if (path === "/api/config")
        return json({
          capabilities: ["text"],
          providers: { text: "openai", image: "openai", video: "replicate", transcription: null },
          offline_providers: false,
        });
      return json({ remaining: 15, unlimited: false });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <QuotaPromptProvider>
          <MainChat />
        </QuotaPromptProvider>
      </Providers>,
    );
    expect(screen.getByRole("heading", { level: 1, name: "Main Story" })).toBeTruthy();
    const canvas = screen.getByRole("region", { name: "Scene canvas" });
    await waitFor(() =>
      expect(within(canvas).getByRole("img", { name: "Generated story scene" }).getAttribute("src")).toBe(
        "/media/main.png",
      ),
    );
    // Real providers: no offline note. Main-chat pictures open the preview but are not references.
    expect(screen.queryByText("Offline AI")).toBeNull();
    expect(screen.queryByRole("button", { name: "Select as reference" })).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Chat" }));
    fireEvent.change(screen.getByLabelText("Message", { exact: true }), { target: { value: "Sail on" } });
    fireEvent.keyDown(screen.getByLabelText("Message", { exact: true }), { key: "Enter" });
    expect(await screen.findByText("The sea answers.")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")).toMatchObject({
      path: "/api/chat",
      body: { prompt: "Sail on", generate_video: false, chat_mode: "chat" },
    });
  });

  it("starts empty with 'Start Your Adventure'", async () => {
    mockFetch(({ path }) =>
      path === "/api/chat/history"
        ? json({ success: true, messages: [] })
        : json({ remaining: 15, unlimited: false }),
    );
    render(
      <Providers auth={SIGNED_IN}>
        <QuotaPromptProvider>
          <MainChat />
        </QuotaPromptProvider>
      </Providers>,
    );
    expect(await screen.findByText("Start Your Adventure")).toBeTruthy();
    expect(screen.getByText("No Media Yet")).toBeTruthy();
  });
});
