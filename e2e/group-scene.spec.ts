// A group scene (issue 43 item 2, decision 0164) in a real browser against the real server with the offline
// narrator: three characters of the story are put in one scene in Story Settings, "Everyone replies in turn"
// makes each of them answer the player's line in order (each message with its speaker's name, each a paid chat
// turn), and in "You choose each time" the speaker bar names who answers and "Let <name> speak" gives a character
// a line without one from the player. Axe in both themes; looked at light, dark and 390 px.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const CAST = ["Mira Voss", "Odo Brand", "Greta Lund"] as const;

let sink: Mailbox;
let player: SignedInAccount;
let consoleWatch: ConsoleWatch;
let storyId: string;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  player = await registerVerified(request, sink, baseURL ?? "", newAccount("group"));
  const created = await request.post("/api/stories", {
    headers: bearer(player),
    data: { title: "The Lamp Room", context: "A lighthouse crew on the night the ship is due." },
  });
  expect(created.ok(), await created.text()).toBe(true);
  storyId = ((await created.json()) as { story: { id: string } }).story.id;
  for (const name of CAST) {
    const card = await request.post(`/api/stories/${storyId}/cards`, {
      headers: bearer(player),
      data: {
        name,
        kind: "character",
        triggers: [name.split(" ")[0]],
        description: `${name} keeps the lamp.`,
      },
    });
    expect(card.ok(), await card.text()).toBe(true);
  }
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const answers = (page: Page) =>
  page.getByRole("list", { name: "Messages" }).getByRole("listitem").filter({ hasText: "Narrator:" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const balance = async (page: Page) =>
  (
    (await (await page.request.get("/api/credit-balance", { headers: bearer(player) })).json()) as {
      remaining: number;
    }
  ).remaining;

test("everyone in the scene replies in turn, and the player can choose who speaks next", async ({ page }) => {
  await storeSession(page, player, "light");
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "The Lamp Room" })).toBeVisible();

  // Story Settings: A group of the three, everyone replies in turn.
  await page.getByRole("button", { name: "Story Settings" }).click();
  const who = page.getByRole("group", { name: "Who tells the story" });
  await who.getByRole("radio", { name: "A group" }).check();
  const present = who.getByRole("group", { name: /Characters present/ });
  for (const name of CAST) await expect(present.getByRole("checkbox", { name, exact: true })).toBeChecked();
  await who.getByLabel("Who speaks next").selectOption("all");
  await shoot(page, "group-scene-settings");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(who).toBeHidden();

  // One line from the player; each character answers it, one after another, each a chat turn.
  const before = await balance(page);
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).fill("Is the lamp lit? The ship is due tonight.");
  await messageBox(page).press("Enter");
  await expect(answers(page)).toHaveCount(3, { timeout: 90_000 });
  const speakers = await Promise.all(
    [0, 1, 2].map((n) => answers(page).nth(n).getByTestId("speaker-name").textContent()),
  );
  expect(new Set(speakers)).toEqual(new Set(CAST));
  await expect.poll(() => balance(page), { timeout: 15_000 }).toBe(before - 1.5);
  await shoot(page, "group-scene-light");
  await expectNoSeriousAxeViolationsInBothThemes(page, "a group scene");

  // You choose each time: the bar names who answers; "Let <name> speak" gives them a line of their own.
  await page.getByRole("button", { name: "Story Settings" }).click();
  await who.getByLabel("Who speaks next").selectOption("manual");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(who).toBeHidden();
  const bar = page.getByLabel("Speaks next");
  await expect(bar.locator("option")).toHaveText([...CAST]);
  await bar.selectOption({ label: "Greta Lund" });
  await page.getByRole("button", { name: /^Let Greta Lund speak/ }).click();
  await expect(answers(page)).toHaveCount(4, { timeout: 60_000 });
  await expect(answers(page).nth(3).getByTestId("speaker-name")).toHaveText("Greta Lund");
  await bar.selectOption({ label: "Odo Brand" });
  await messageBox(page).fill("Odo, did you see the ship?");
  // Greta's words can be on screen before her turn ends; Enter sends only once Send is back in place of Stop.
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
  await messageBox(page).press("Enter");
  await expect(answers(page)).toHaveCount(5, { timeout: 60_000 });
  await expect(answers(page).nth(4).getByTestId("speaker-name")).toHaveText("Odo Brand");

  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await shoot(page, "group-scene-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await shoot(page, "group-scene-390");
});
