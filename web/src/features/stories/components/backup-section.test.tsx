import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../../i18n/i18n";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN, TEST_TOKEN } from "../../../test/render-app";
import { describePreview } from "../api/restore-story";
import { turnsLabel } from "../branch-tree";
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
    const calls = mockFetch((call) =>
      call.path.endsWith("/summary")
        ? json({ success: true, branches: 1, checkpoints: 0, media: 0 })
        : new Response("PK archive", {
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
    const download = calls.find((call) => call.path === `/api/stories/${STORY_ID}/backup`);
    expect(download?.headers.Authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(await screen.findByRole("button", { name: "Download backup" })).toBeTruthy();
  });

  it("says exactly what the backup holds: its branches, checkpoints, pictures and clips", async () => {
    mockFetch((call) =>
      call.path === `/api/stories/${STORY_ID}/backup/summary`
        ? json({ success: true, branches: 3, checkpoints: 2, media: 41 })
        : json({ detail: "unexpected", code: "not_found" }, 404),
    );
    renderSection();
    expect(
      await screen.findByText(
        /^The whole story in one file: 3 branches, 2 checkpoints, 41 pictures and clips\./,
      ),
    ).toBeTruthy();
  });

  it("says why when the backup cannot be made", async () => {
    mockFetch(() => json({ detail: "Story not found", code: "not_found" }, 404));
    const onError = renderSection();
    fireEvent.click(screen.getByRole("button", { name: "Download backup" }));
    await waitFor(() =>
      expect(onError).toHaveBeenLastCalledWith("Failed to download the backup: Story not found"),
    );
  });

  it("speaks German: the section, its plurals and numbers, and the backup a restore previews", async () => {
    await setLanguage("de", { remember: false });
    mockFetch((call) =>
      call.path === `/api/stories/${STORY_ID}/backup/summary`
        ? json({ success: true, branches: 1, checkpoints: 2, media: 1250 })
        : json({ detail: "unexpected", code: "not_found" }, 404),
    );
    renderSection();
    expect(screen.getByRole("heading", { name: "Backup" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Backup herunterladen" })).toBeTruthy();
    expect(
      await screen.findByText(
        /^Die ganze Geschichte in einer Datei: 1 Zweig, 2 Checkpoints, 1\.250 Bilder und Clips\./,
      ),
    ).toBeTruthy();
    expect(
      describePreview({
        title: "Salzstraßen",
        exchanges: 1,
        branches: 3,
        checkpoints: 1,
        media: 41,
        bytes: 5_452_595,
      }),
    ).toBe("1 Wechsel, 3 Zweige, 1 Checkpoint, 41 Bilder und Clips (5,2 MB)");
    expect(turnsLabel(1)).toBe("1 Zug");
    expect(turnsLabel(12)).toBe("12 Züge");
  });
});
