import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN, TEST_TOKEN } from "../../../test/render-app";
import { BackupSection } from "./backup-section";

const STORY_ID = "ffffffff-ffff-4fff-8fff-ffffffffffff";

function renderSection(onError = vi.fn()) {
  render(
    <Providers auth={SIGNED_IN}>
      <BackupSection storyId={STORY_ID} onError={onError} />
    </Providers>,
  );
  return onError;
}

describe("Download backup", () => {
  it("fetches the story's archive with the player's token and saves it under the server's name", async () => {
    const calls = mockFetch(
      () =>
        new Response("PK archive", {
          status: 200,
          headers: {
            "Content-Type": "application/zip",
            "Content-Disposition": 'attachment; filename="neon-nights.storyverse.zip"',
          },
        }),
    );
    vi.stubGlobal(
      "URL",
      Object.assign(URL, { createObjectURL: vi.fn(() => "blob:backup"), revokeObjectURL: vi.fn() }),
    );
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute("href") ?? "", download: this.download });
    });
    renderSection();

    fireEvent.click(screen.getByRole("button", { name: "Download backup" }));
    await waitFor(() =>
      expect(saved).toEqual([{ href: "blob:backup", download: "neon-nights.storyverse.zip" }]),
    );
    expect(calls[0]?.path).toBe(`/api/stories/${STORY_ID}/backup`);
    expect(calls[0]?.headers.Authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(await screen.findByRole("button", { name: "Download backup" })).toBeTruthy();
  });

  it("says why when the backup cannot be made", async () => {
    mockFetch(() => json({ detail: "Story not found", code: "not_found" }, 404));
    const onError = renderSection();
    fireEvent.click(screen.getByRole("button", { name: "Download backup" }));
    await waitFor(() =>
      expect(onError).toHaveBeenLastCalledWith("Failed to download the backup: Story not found"),
    );
  });
});
