// Who tells the story (decision 0154), in a real browser against the real server with the offline narrator: a
// character card imported from the Stories list starts in character mode, so its greeting and the answer to the
// player's first turn are the character's, shown with its name and its card's portrait, the answer an action in
// italics and first-person speech. Story Settings says "A character" with the card picked, and going back to the
// Narrator makes the next answer the narrator's again. Axe in both themes; looked at light, dark and 390 px.
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  watchConsole,
} from "./support/page-checks";
import { newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

/** Mira Voss (V3) with her portrait: the character-import spec's fixture. */
const V3_CARD_PNG = path.resolve(import.meta.dirname, "../server/test/fixtures/interop/v3-card.png");
const CARD_NAME = "Mira Voss (V3)";

let sink: Mailbox;
let player: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  player = await registerVerified(request, sink, baseURL ?? "", newAccount("teller"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const shots = process.env.SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

const answers = (page: Page) =>
  page.getByRole("list", { name: "Messages" }).getByRole("listitem").filter({ hasText: "Narrator:" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });

test("an imported character speaks in the first person with its name and portrait, until the narrator tells again", async ({
  page,
}) => {
  await storeSession(page, player, "light");
  await page.goto("/stories");
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import a character" }).click();
  await (await chooser).setFiles(V3_CARD_PNG);
  await expect(page.getByRole("heading", { level: 1, name: CARD_NAME })).toBeVisible({ timeout: 30_000 });

  // The greeting is Mira's: her name and her card's portrait instead of the narrator's feather.
  const opening = answers(page).first();
  await expect(opening.getByText(CARD_NAME, { exact: true })).toBeVisible();
  const portrait = opening.getByTestId("speaker-portrait");
  await expect(portrait).toBeVisible();
  await expect.poll(() => portrait.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // A words-only turn: the answer is what is looked at.
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).fill('"Who are you, and why do you keep this light?"');
  await messageBox(page).press("Enter");
  await expect(answers(page)).toHaveCount(2, { timeout: 60_000 });
  const answer = answers(page).nth(1);
  await expect(answer.getByText(CARD_NAME, { exact: true })).toBeVisible();
  await expect(answer.getByTestId("speaker-portrait")).toBeVisible();
  // An action in italics naming her, then her own words in the first person.
  await expect(answer.locator("em").first()).toContainText(CARD_NAME);
  await expect(answer).toContainText(/"[^"]*\bI\b[^"]*"/, { timeout: 30_000 });
  await answer.scrollIntoViewIfNeeded();
  await shoot(page, "character-teller-light");
  await expectNoSeriousAxeViolationsInBothThemes(page, "a character's answer");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await shoot(page, "character-teller-dark");
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize({ width: 390, height: 844 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await shoot(page, "character-teller-390");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Story Settings: "A character", Mira picked; back to the Narrator.
  await page.getByRole("button", { name: "Story Settings" }).click();
  const who = page.getByRole("group", { name: "Who tells the story" });
  await expect(who.getByRole("radio", { name: "A character" })).toBeChecked();
  await expect(who.getByLabel("Character", { exact: true })).toHaveValue(/[0-9a-f-]{36}/);
  await expect(who.getByLabel("Character", { exact: true }).locator("option:checked")).toHaveText(CARD_NAME);
  await shoot(page, "character-teller-settings");
  await who.getByRole("radio", { name: "Narrator" }).check();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(who).toBeHidden();

  await messageBox(page).fill("I climb the stairs to the lamp room");
  await messageBox(page).press("Enter");
  await expect(answers(page)).toHaveCount(3, { timeout: 60_000 });
  const told = answers(page).nth(2);
  await expect(told.getByTestId("speaker-portrait")).toHaveCount(0);
  // No speaker's name over it (the narrator may still name the story, which is titled after the card).
  await expect(told.getByTestId("speaker-name")).toHaveCount(0);
});
