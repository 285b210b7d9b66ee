import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { CreatorNotes } from "./creator-notes";

const STORY_ID = "eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee";

function serveNotes(creatorNotes: string) {
  return mockFetch((call) =>
    call.path === `/api/stories/${STORY_ID}/lore-settings`
      ? json({
          success: true,
          lore_budget_percent: 50,
          lore_scan_depth: 4,
          narrator_instructions: "",
          post_history_instructions: "",
          creator_notes: creatorNotes,
          character_name: "Seraphina",
        })
      : json({ detail: "unexpected" }, 404),
  );
}

function renderNotes() {
  return render(
    <Providers auth={SIGNED_IN}>
      <CreatorNotes storyId={STORY_ID} />
    </Providers>,
  );
}

describe("the Creator's notes of an imported character", () => {
  it("are folded under the header and open on demand, as plain text", async () => {
    serveNotes('Best with a slow-burn start.\n<b onclick="alert(1)">Bold?</b> <script>alert(2)</script>');
    const { container } = renderNotes();
    const toggle = await screen.findByRole("button", { name: "Creator's notes" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("region", { name: "Creator's notes" })).toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const panel = screen.getByRole("region", { name: "Creator's notes" });
    expect(panel.textContent).toBe(
      'Best with a slow-burn start.\n<b onclick="alert(1)">Bold?</b> <script>alert(2)</script>',
    );
    // The card author's markup is shown as the characters it is, never made into elements.
    expect(container.querySelector("b, script")).toBeNull();

    fireEvent.click(toggle);
    expect(screen.queryByRole("region", { name: "Creator's notes" })).toBeNull();
  });

  it("are not shown for a story without any", async () => {
    const calls = serveNotes("   ");
    renderNotes();
    await waitFor(() => expect(calls.some((call) => call.path.endsWith("/lore-settings"))).toBe(true));
    // The answer has been read and rendered: a blank note is no note.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole("button", { name: "Creator's notes" })).toBeNull();
  });
});
