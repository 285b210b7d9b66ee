// Cards kept whole and the loop smoothed (issue #43 items 5 and 6), in a real browser against the real server
// (offline narrator): a SillyTavern card with a 31,000-character description imports whole (the card editor
// holds every character, "What the narrator sees" says what this turn leaves out to fit the budget); a World
// Info repeating the story's entries lists them, skips them by default and numbers them only when asked;
// "Save and regenerate" on the edited player line answers the new words for one chat turn's price; short of
// credits, the composer offers a Chat turn, and buying credits comes back to the story with the draft in the
// box. Axe in both themes; SHOTS_DIR also takes each view at 390 px.

import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolationsInBothThemes, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

let sink: Mailbox;
test.beforeAll(() => {
  sink = openMailbox();
});

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

/** Exactly `length` characters of varied prose (accents, curly quotes, line breaks), no macros. */
function longText(length: number, seed: string): string {
  const pieces = [
    `${seed} keeps the light at Calder; `,
    "the café’s owner says “not tonight”,\n",
    "naïve sailors. ",
  ];
  let text = "";
  for (let i = 0; text.length < length; i++) text += pieces[i % pieces.length];
  return `${text.slice(0, length - 1)}.`;
}

const DESCRIPTION = longText(31_000, "Seraphina");
const ELDORIA = longText(8_000, "Eldoria");
const entry = (id: number, name: string, content: string) => ({
  keys: [name],
  content,
  extensions: {},
  enabled: true,
  insertion_order: 100,
  case_sensitive: false,
  name,
  priority: 10,
  id,
  comment: name,
  selective: false,
  secondary_keys: [],
  constant: false,
  position: "before_char",
});
const CARD = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Seraphina",
    description: DESCRIPTION,
    personality: longText(3_000, "Kind"),
    scenario: longText(9_000, "Forest"),
    first_mes: "*Seraphina lowers her lantern.* You are awake at last.",
    mes_example: "",
    creator_notes: "",
    system_prompt: "",
    post_history_instructions: "",
    alternate_greetings: [],
    character_book: {
      name: "Eldoria",
      extensions: {},
      entries: [entry(0, "eldoria", ELDORIA), entry(1, "shadowfang", "A grey wolf of the old forest.")],
    },
    tags: [],
    creator: "",
    character_version: "",
    extensions: {},
  },
};
const WORLD_INFO = {
  entries: Object.fromEntries(
    [
      ["eldoria", ELDORIA],
      ["Moonwell", "A spring that shows what was."],
    ].map(([name, content], uid) => [
      String(uid),
      {
        uid,
        key: [name],
        keysecondary: [],
        comment: name,
        content,
        constant: false,
        disable: false,
        order: 100,
      },
    ]),
  ),
};

const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });
const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByRole("listitem");
const narrator = (page: Page) => messages(page).filter({ hasText: "Narrator:" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const balanceOf = async (page: Page, account: SignedInAccount) =>
  (
    (await (await page.request.get("/api/credit-balance", { headers: bearer(account) })).json()) as {
      remaining: number;
    }
  ).remaining;

async function importCard(page: Page, account: SignedInAccount): Promise<string> {
  const res = await page.request.post("/api/stories/import", {
    headers: bearer(account),
    multipart: {
      file: {
        name: "seraphina.json",
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify(CARD)),
      },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const body = (await res.json()) as { story: { id: string }; notes: { reason: string }[] };
  expect(body.notes.filter((note) => /cut/.test(note.reason))).toEqual([]);
  return body.story.id;
}

test("a long card imports whole, and a repeated lore entry is skipped unless kept both", async ({
  page,
  request,
  baseURL,
}) => {
  const watch = watchConsole(page);
  const account = await registerVerified(request, sink, baseURL ?? "", newAccount("whole"));
  await storeSession(page, account, "light");
  const storyId = await importCard(page, account);
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Seraphina" })).toBeVisible({ timeout: 30_000 });

  // The card editor holds the description whole: every one of its 31,000 characters.
  await openStoryTool(page, "Story Cards");
  const cards = dialog(page, "Story Cards");
  await cards.getByRole("button", { name: "Edit Seraphina" }).click();
  const description = cards.getByLabel("Description");
  await expect(description).toHaveValue(DESCRIPTION);
  await expect(cards.getByText(`${DESCRIPTION.length}/32000`)).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "a long card in the editor");
  await shoot(page, "long-card-editor-light");
  await cards.getByRole("button", { name: "Cancel" }).click();

  // A World Info repeating "eldoria": listed, skipped by default, numbered only when asked.
  await cards.getByRole("button", { name: "Import cards or a lorebook" }).click();
  await cards.getByLabel("Choose a card or lorebook file").setInputFiles({
    name: "eldoria-world.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(WORLD_INFO)),
  });
  const already = cards.getByRole("list", { name: "Already in this story" });
  await expect(already).toHaveText("eldoria: the same text");
  await expect(cards.getByRole("radio", { name: /Skip them/ })).toBeChecked();
  const made = cards.getByRole("list", { name: "Cards to make" });
  await expect(made.locator(":scope > li")).toHaveCount(1);
  await expect(made.getByRole("listitem", { name: "Moonwell" })).toBeVisible();
  await cards.getByRole("radio", { name: /Keep both/ }).check();
  await expect(cards.getByRole("listitem", { name: "eldoria (2)" })).toBeVisible();
  await expect(cards.getByRole("list", { name: "Skipped" })).toContainText(
    'renamed "eldoria (2)": another card has that name',
  );
  await expectNoSeriousAxeViolationsInBothThemes(page, "lore duplicates in the import preview");
  await shoot(page, "lore-duplicates-light");
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await shoot(page, "lore-duplicates-dark");
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await cards.getByRole("radio", { name: /Skip them/ }).check();
  await expect(cards.getByRole("listitem", { name: "eldoria (2)" })).toHaveCount(0);
  await cards.getByRole("button", { name: "Import 1 card" }).click();
  await expect(cards.getByText("Imported 1 card.")).toBeVisible();
  const names = (
    (await (
      await page.request.get(`/api/stories/${storyId}/cards`, { headers: bearer(account) })
    ).json()) as {
      cards: { name: string }[];
    }
  ).cards.map((card) => card.name);
  expect(names.sort()).toEqual(["Moonwell", "Seraphina", "eldoria", "shadowfang"]);
  await page.keyboard.press("Escape");

  // What the narrator sees: the context is sent in part this turn, and the story keeps it whole.
  await openStoryTool(page, "What the narrator sees");
  const cut = page.getByRole("list", { name: "Left out to fit the budget" });
  await expect(cut).toContainText("Story context:");
  await expect(cut).toContainText(
    "characters sent; the rest is left out to fit the budget. The story keeps it whole.",
  );
  await expectNoSeriousAxeViolationsInBothThemes(page, "what the narrator sees, with cuts");
  await shoot(page, "narrator-sees-cuts-light");
  await page.keyboard.press("Escape");
  watch.assertClean();
});

test("Save and regenerate answers the edited line for one chat turn's price", async ({
  page,
  request,
  baseURL,
}) => {
  const watch = watchConsole(page);
  const account = await registerVerified(request, sink, baseURL ?? "", newAccount("regen"));
  const created = await page.request.post("/api/stories", {
    headers: bearer(account),
    data: { title: "Lighthouse", context: "A lighthouse on a grey coast" },
  });
  const storyId = ((await created.json()) as { story: { id: string } }).story.id;
  await storeSession(page, account, "dark");
  await page.goto(`/stories/${storyId}`);
  await page.getByRole("group", { name: "Mode" }).getByRole("button", { name: "Chat" }).click();
  await messageBox(page).fill("I ask the keeper about the lamp");
  await messageBox(page).press("Enter");
  await expect(narrator(page)).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByRole("button", { name: /^Retry/ })).toBeEnabled({ timeout: 60_000 });
  const before = await balanceOf(page, account);

  await page.getByRole("button", { name: "Edit message" }).last().click();
  const box = page.getByRole("textbox", { name: "Edit message" });
  await box.fill("I ask the keeper why the lamp burns green\nand who lit it first\nand when");
  const grown = await box.evaluate((element) => element.getBoundingClientRect().height);
  expect(grown).toBeGreaterThan(100);
  const regenerate = page.getByRole("button", { name: /^Save and regenerate 0\.5 credits/ });
  await expect(regenerate).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "editing the player's line");
  await shoot(page, "save-and-regenerate-dark");
  await regenerate.click();
  await expect(messages(page).filter({ hasText: "You:" })).toContainText("why the lamp burns green");
  await expect(narrator(page).last()).toContainText("green", { timeout: 60_000 });
  await expect.poll(() => balanceOf(page, account), { timeout: 30_000 }).toBe(before - 0.5);
  watch.assertClean();
});

test("short of credits, a Chat turn is offered, and buying credits returns to the story with the draft", async ({
  page,
  request,
  baseURL,
}) => {
  const watch = watchConsole(page);
  const account = await registerVerified(request, sink, baseURL ?? "", newAccount("short"));
  // 15 credits: two batches of four pictures (6 each), one picture (1.5) and an advice (0.5) leave 1.
  for (const size of [4, 4, 1]) {
    const res = await page.request.post("/api/studio/generate-image", {
      headers: bearer(account),
      data: { prompt: "a quiet harbour at dawn", batch_size: size, input_images: [] },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  const advice = await page.request.post("/api/studio/advisor-chat", {
    headers: bearer(account),
    data: { prompt: "a fox in the snow" },
  });
  expect(advice.ok(), await advice.text()).toBe(true);
  expect(await balanceOf(page, account)).toBe(1);

  const created = await page.request.post("/api/stories", {
    headers: bearer(account),
    data: { title: "Harbour", context: "A harbour at dawn" },
  });
  const storyId = ((await created.json()) as { story: { id: string } }).story.id;
  await storeSession(page, { ...account, credits: 1 }, "light");
  await page.goto(`/stories/${storyId}`);
  await page.getByRole("group", { name: "Mode" }).getByRole("button", { name: "Image" }).click();
  await messageBox(page).fill("I buy a lantern from the stall");
  const notice = page.getByRole("status").filter({ hasText: "Not enough credits" });
  await expect(notice).toContainText("this costs 1.5 credits and you have 1 credit");
  const offer = notice.getByRole("button", { name: "Use Chat instead (0.5 credits)" });
  await expect(offer).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "the cheaper mode offered");
  await shoot(page, "cheaper-mode-light");
  await offer.click();
  await expect(
    page.getByRole("group", { name: "Mode" }).getByRole("button", { name: "Chat" }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("status").filter({ hasText: "Not enough credits" })).toHaveCount(0);

  // Back to Image, then buy: the checkout returns to the story, and the words are still in the box.
  await page.getByRole("group", { name: "Mode" }).getByRole("button", { name: "Image" }).click();
  await page
    .getByRole("status")
    .filter({ hasText: "Not enough credits" })
    .getByRole("button", {
      name: "Get credits",
    })
    .click();
  await page.getByRole("button", { name: "Buy Pro Pack" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_/);
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  await expect(page.getByText(/^Payment successful!/)).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`/stories/${storyId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Harbour" })).toBeVisible();
  await expect(messageBox(page)).toHaveValue("I buy a lantern from the stall");
  await expect(page.getByRole("status").filter({ hasText: "Not enough credits" })).toHaveCount(0);
  await shoot(page, "back-from-checkout-light");
  watch.assertClean();
});
