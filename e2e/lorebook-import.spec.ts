// Importing a SillyTavern World Info lorebook into a story's Story Cards, in a real browser against the real
// server (offline narrator): the file is read first as a dry run, whose preview lists the cards it will make
// (an always-on entry marked) and the entry it skips with the reason; nothing is saved until "Import 2 cards".
// A turn that names an entry's key wakes it, and "What the narrator sees" says why each card fired. The
// cards export back as World Info with the entries' content. The card editor shows the imported lore rules;
// post-history instructions saved in the lore settings are a part of what the narrator sees; with a small
// lore budget, the lowest-priority card is marked as left out. Axe in both themes; SHOTS_DIR also takes each view at 390 px.

import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

test.describe.configure({ mode: "serial" });
// A turn, two axe passes and the dialogs: generous on a loaded machine.
test.setTimeout(180_000);

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("lore"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

/** A SillyTavern World Info file as SillyTavern writes it: a keyed entry, an always-on one, an empty one. */
const worldInfo = {
  entries: {
    "0": {
      uid: 0,
      key: ["Mara"],
      keysecondary: [],
      comment: "Mara the smith",
      content:
        "Mara is the harbour's blacksmith: soot-dark hands, a laugh like a bell, owes the guild money.",
      constant: false,
      selective: false,
      selectiveLogic: 0,
      order: 100,
      position: 0,
      disable: false,
      probability: 100,
      useProbability: true,
      depth: 4,
    },
    "1": {
      uid: 1,
      key: [],
      keysecondary: [],
      comment: "The grey sea",
      content: "In Calder the sea is always grey, and no one swims in it.",
      constant: true,
      selective: false,
      selectiveLogic: 0,
      order: 10,
      position: 0,
      disable: false,
      probability: 100,
      useProbability: true,
      depth: 4,
    },
    "2": {
      uid: 2,
      key: ["lighthouse"],
      keysecondary: [],
      comment: "Unfinished note",
      content: "",
      constant: false,
      selective: false,
      selectiveLogic: 0,
      order: 100,
      position: 0,
      disable: false,
      probability: 100,
      useProbability: true,
      depth: 4,
    },
  },
};
const WORLD_INFO_FILE = {
  name: "calder-world-info.json",
  mimeType: "application/json",
  buffer: Buffer.from(JSON.stringify(worldInfo)),
};

const shots = process.env.SHOTS_DIR;
/** The view as it is, and (taking screenshots) at 390 px wide too. */
const shoot = async (page: Page, name: string) => {
  if (!shots) return;
  await page.screenshot({ path: `${shots}/${name}.png` });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/${name}-390.png` });
  if (size) await page.setViewportSize(size);
};

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByRole("listitem");
const narrator = (page: Page) => messages(page).filter({ hasText: "Narrator:" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

async function openNewStory(page: Page, title: string, theme: "light" | "dark") {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title, context: "Calder, a harbour town at the edge of a grey sea" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, writer, theme);
  await page.goto(`/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
  return story.id;
}

// One walk in the light theme, with axe in both themes at each view.
test("a World Info lorebook is previewed, imported, fires on its key and says why", async ({ page }) => {
  const theme = "light";
  const storyId = await openNewStory(page, `Calder ${theme}`, theme);
  await openStoryTool(page, "Story Cards");
  const cards = dialog(page, "Story Cards");
  await expect(cards.getByText("No cards yet.")).toBeVisible();
  await cards.getByRole("button", { name: "Import cards or a lorebook" }).click();
  await cards.getByLabel("Choose a card or lorebook file").setInputFiles(WORLD_INFO_FILE);

  // The dry run's preview: two cards to make (one always on), the empty entry skipped with its reason.
  const made = cards.getByRole("list", { name: "Cards to make" });
  await expect(made.locator(":scope > li")).toHaveCount(2);
  await expect(cards.getByText(/calder-world-info\.json: SillyTavern World Info/)).toBeVisible();
  const mara = made.getByRole("listitem", { name: "Mara the smith" });
  await expect(mara.getByRole("list", { name: "Triggers of Mara the smith" })).toHaveText("Mara");
  await expect(made.getByRole("listitem", { name: "The grey sea" }).getByText("Always on")).toBeVisible();
  await expect(cards.getByRole("list", { name: "Skipped" })).toHaveText(
    "Unfinished note: It has no content.",
  );
  // Nothing is saved by the preview.
  const before = await page.request.get(`/api/stories/${storyId}/cards`, { headers: bearer(writer) });
  expect((await before.json()).cards).toEqual([]);
  await expectNoSeriousAxeViolationsInBothThemes(page, "import preview");
  await shoot(page, `import-preview-${theme}`);

  await cards.getByRole("button", { name: "Import 2 cards" }).click();
  await expect(cards.getByText("Imported 2 cards.")).toBeVisible();
  const list = cards.getByRole("list", { name: "Cards" });
  await expect(list.getByRole("listitem", { name: "Mara the smith" })).toBeVisible();
  await expect(list.getByRole("listitem", { name: "The grey sea" }).getByText("Always on")).toBeVisible();

  // The whole story's cards go back out as World Info, with the entries' words.
  await cards.getByRole("button", { name: "Export all cards" }).click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: /^Export as SillyTavern World Info/ })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "export menu");
  await shoot(page, `export-menu-${theme}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    menu.getByRole("menuitem", { name: /^Export as SillyTavern World Info/ }).click(),
  ]);
  const exported = JSON.parse(await readFile((await download.path()) ?? "", "utf8")) as {
    entries: Record<string, { content: string; constant: boolean }>;
  };
  expect(
    Object.values(exported.entries)
      .map((entry) => entry.content)
      .sort(),
  ).toEqual([worldInfo.entries["1"].content, worldInfo.entries["0"].content]);

  // The card editor shows the imported rules under "Advanced lore rules" (open: the card is always on).
  await cards.getByRole("button", { name: "Edit The grey sea" }).click();
  await expect(cards.getByRole("button", { name: "Advanced lore rules" })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await expect(cards.getByLabel("Always on")).toBeChecked();
  await expect(cards.getByLabel("Insertion order")).toHaveValue("10");
  await expectNoSeriousAxeViolationsInBothThemes(page, "card editor with lore rules");
  await cards.getByRole("button", { name: "Advanced lore rules" }).scrollIntoViewIfNeeded();
  await shoot(page, `card-editor-rules-${theme}`);
  await cards.getByLabel("Priority").scrollIntoViewIfNeeded();
  await shoot(page, `card-editor-rules-end-${theme}`);
  await cards.getByRole("button", { name: "Cancel" }).click();

  await cards.getByRole("button", { name: "Lore settings" }).click();
  await expect(cards.getByLabel("Scan depth")).toHaveValue("4");
  await expectNoSeriousAxeViolationsInBothThemes(page, "lore settings");
  await shoot(page, `lore-settings-${theme}`);
  await cards.getByLabel("Post-history instructions").fill("Keep every answer under a hundred words.");
  await cards.getByRole("button", { name: "Save lore settings" }).click();
  await expect(cards.getByText("Lore settings saved.")).toBeVisible();
  await page.keyboard.press("Escape");

  // A turn that names Mara: she wakes, and the panel says why (and why the sea is there at all).
  await messageBox(page).fill("I knock on Mara's forge door");
  await messageBox(page).press("Enter");
  await expect(narrator(page)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Stop the narrator" })).toHaveCount(0, { timeout: 30_000 });
  await openStoryTool(page, "What the narrator sees");
  const context = dialog(page, "What the narrator sees");
  const active = context.getByRole("region", { name: "Active Story Cards" });
  await expect(active.getByRole("listitem", { name: "Mara the smith" })).toContainText('Why: "Mara"');
  await expect(active.getByRole("listitem", { name: "The grey sea" })).toContainText("Why: always on");
  await context.getByLabel("Next message").fill("Mara hands me a hammer");
  await context.getByRole("button", { name: "Show" }).click();
  await expect(active.getByRole("listitem", { name: "Mara the smith" })).toContainText(
    'Why: "Mara" in your message',
  );
  // The post-history instructions saved above are their own part of the budget.
  await expect(context.getByRole("region", { name: "Token budget" })).toContainText(
    "Post-history instructions",
  );
  await expect(context.getByRole("region", { name: "Messages sent" })).toContainText(
    "Keep every answer under a hundred words.",
  );
  await expectNoSeriousAxeViolationsInBothThemes(page, "narrator context");
  await active.scrollIntoViewIfNeeded();
  await shoot(page, `narrator-context-${theme}`);
  await page.keyboard.press("Escape");
});

test("a card the lore budget has no room for is marked as left out", async ({ page }) => {
  const storyId = await openNewStory(page, "Crowded lore", "dark");
  const long = (what: string) => `${what} `.repeat(200).slice(0, 1000);
  for (const [name, priority] of [
    ["The Guild", 50],
    ["The Chain", 40],
    ["The Old Wall", 1],
  ] as const) {
    const made = await page.request.post(`/api/stories/${storyId}/cards`, {
      headers: bearer(writer),
      data: { name, kind: "place", triggers: [], constant: true, priority, description: long(name) },
    });
    expect(made.ok(), await made.text()).toBe(true);
  }
  await openStoryTool(page, "Story Cards");
  const cards = dialog(page, "Story Cards");
  await cards.getByRole("button", { name: "Lore settings" }).click();
  await cards.getByLabel("Lore budget").fill("5");
  await cards.getByRole("button", { name: "Save lore settings" }).click();
  await expect(cards.getByText("Lore settings saved.")).toBeVisible();
  await page.keyboard.press("Escape");

  await openStoryTool(page, "What the narrator sees");
  const active = dialog(page, "What the narrator sees").getByRole("region", { name: "Active Story Cards" });
  // The lowest priority goes first.
  await expect(active.getByRole("listitem", { name: "The Old Wall" })).toContainText(
    "Left out: lore budget full",
  );
  await expect(active.getByRole("listitem", { name: "The Guild" })).not.toContainText("Left out");
  await expect(active.getByRole("listitem", { name: "The Guild" })).toContainText("Why: always on");
  await expectNoSeriousAxeViolations(page, "narrator context with a card left out");
  await active.scrollIntoViewIfNeeded();
  await shoot(page, "narrator-context-left-out-dark");
});
