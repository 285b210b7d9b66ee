// A story whose share link an administrator took down (decision 0150): its owner's Share dialog says so, with
// the reason, and offers no new link.
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeStory } from "../../../test/story-fixtures";
import { ShareExportDialog } from "./share-export-dialog";

const NoSection = () => null;

afterEach(() => vi.unstubAllGlobals());

describe("a share link taken down", () => {
  it("shows the owner the administrator's reason and no way to share the story again", async () => {
    const story = makeStory();
    mockFetch(({ path }) => {
      if (path.endsWith("/film")) return json({ success: true, film: null, cost: 0 });
      return json({
        success: true,
        shared: false,
        url: null,
        created_at: null,
        show_username: false,
        taken_down: { at: "2026-01-10T11:00:00.000Z", reason: "Copied from a published book" },
      });
    });
    render(
      <Providers auth={SIGNED_IN}>
        <ShareExportDialog story={story} onClose={() => {}} backupSection={NoSection} />
      </Providers>,
    );
    expect(await screen.findByText("An administrator took this story's link down.")).toBeTruthy();
    expect(screen.getByText("Reason: Copied from a published book")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Create share link" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Revoke link" })).toBeNull();
  });
});
