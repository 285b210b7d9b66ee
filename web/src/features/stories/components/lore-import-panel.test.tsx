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

  it("lists entries the story already has, skips them by default, and imports with the choice made (issue #43)", async () => {
    const book = new File([JSON.stringify({ entries: {} })], "world.json", { type: "application/json" });
    const preview = (choice: string) => ({
      success: true,
      dry_run: true,
      source: "SillyTavern World Info",
      cards:
        choice === "keep_both"
          ? [
              {
                name: "eldoria (2)",
                kind: "other",
                triggers: ["eldoria"],
                description: "",
                constant: false,
                has_portrait: false,
              },
              {
                name: "Harbour",
                kind: "other",
                triggers: ["harbour"],
                description: "",
                constant: false,
                has_portrait: false,
              },
            ]
          : [
              {
                name: "Harbour",
                kind: "other",
                triggers: ["harbour"],
                description: "",
                constant: false,
                has_portrait: false,
              },
            ],
      skipped:
        choice === "keep_both"
          ? [{ name: 'card "eldoria"', reason: 'renamed "eldoria (2)": another card has that name' }]
          : [],
      duplicates: [
        {
          name: "eldoria",
          card_id: "c1",
          same_text: true,
          outcome: { skip: "skipped", replace: "replaced", keep_both: "kept_both" }[choice],
        },
      ],
    });
    mockFetch(({ path }) => {
      const choice = /on_duplicate=(\w+)/.exec(path)?.[1] ?? "skip";
      return json(path.includes("dry_run=false") ? { ...preview(choice), dry_run: false } : preview(choice));
    });
    const onDone = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <LoreImportPanel storyId={STORY} onDone={onDone} />
      </Providers>,
    );
    fireEvent.change(screen.getByLabelText("Choose a card or lorebook file"), { target: { files: [book] } });
    const already = await screen.findByRole("list", { name: "Already in this story" });
    expect(already.textContent).toBe("eldoria: the same text");
    expect((screen.getByRole("radio", { name: /Skip them/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole("button", { name: "Import 1 card" })).toBeTruthy();

    fireEvent.click(screen.getByRole("radio", { name: /Replace the story's cards/ }));
    expect(await screen.findByRole("button", { name: "Import 1 card, replace 1" })).toBeTruthy();

    fireEvent.click(screen.getByRole("radio", { name: /Keep both/ }));
    const made = await screen.findByRole("listitem", { name: "eldoria (2)" });
    expect(made).toBeTruthy();
    // The number is never silent: the note says why.
    expect(screen.getByRole("list", { name: "Skipped" }).textContent).toContain(
      'renamed "eldoria (2)": another card has that name',
    );
    fireEvent.click(screen.getByRole("button", { name: "Import 2 cards" }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith(2));
    expect(uploads().map((upload) => upload.path)).toEqual([
      `/api/stories/${STORY}/cards/import?dry_run=true`,
      `/api/stories/${STORY}/cards/import?dry_run=true&on_duplicate=replace`,
      `/api/stories/${STORY}/cards/import?dry_run=true&on_duplicate=keep_both`,
      `/api/stories/${STORY}/cards/import?dry_run=false&on_duplicate=keep_both`,
    ]);
  });
});
