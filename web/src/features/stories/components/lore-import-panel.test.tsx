// The lore import panel takes a NovelAI `.lorebook` file: the server reads that format, so the panel must
// send it (as a dry run first) and show its preview instead of refusing it by its extension.
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { LoreImportPanel } from "./lore-import-panel";

const STORY = "11111111-1111-4111-8111-111111111111";

const NOVELAI = new File(
  [
    JSON.stringify({
      lorebookVersion: 5,
      entries: [{ text: "The Order guards the coast road.", keys: ["Order of the Lamp"] }],
    }),
  ],
  "coast.lorebook",
  // Browsers give an unknown extension no type at all.
  { type: "" },
);

/** The multipart uploads sent, with their file. */
const uploads = () =>
  vi
    .mocked(fetch)
    .mock.calls.filter(([, init]) => init?.body instanceof FormData)
    .map(([input, init]) => ({ path: String(input), file: (init?.body as FormData).get("file") as File }));

describe("Lore import panel", () => {
  it("offers .lorebook in the file picker, sends a NovelAI .lorebook file and shows its preview", async () => {
    mockFetch(() =>
      json({
        success: true,
        dry_run: true,
        source: "NovelAI lorebook",
        cards: [
          {
            name: "Order of the Lamp",
            kind: "other",
            triggers: ["Order of the Lamp"],
            description: "",
            constant: false,
            has_portrait: false,
          },
        ],
        skipped: [],
      }),
    );
    render(
      <Providers auth={SIGNED_IN}>
        <LoreImportPanel storyId={STORY} onDone={() => {}} />
      </Providers>,
    );
    const picker = screen.getByLabelText("Choose a card or lorebook file") as HTMLInputElement;
    expect(picker.accept.split(",")).toContain(".lorebook");
    fireEvent.change(picker, { target: { files: [NOVELAI] } });

    const made = await screen.findByRole("list", { name: "Cards to make" });
    expect(uploads()).toEqual([{ path: `/api/stories/${STORY}/cards/import?dry_run=true`, file: NOVELAI }]);
    expect(screen.queryByText(/Please choose a/)).toBeNull();
    expect(screen.getByText(/coast\.lorebook: NovelAI lorebook/)).toBeTruthy();
    expect(
      within(within(made).getByRole("listitem", { name: "Order of the Lamp" })).getByRole("list", {
        name: "Triggers of Order of the Lamp",
      }).textContent,
    ).toBe("Order of the Lamp");
    expect(screen.getByRole("button", { name: "Import 1 card" })).toBeTruthy();
  });
});
