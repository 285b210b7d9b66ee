// The turn's actions in a real browser against the real server (offline narrator and painter): Continue grows
// the newest answer in place and keeps its picture; Retry's "New words" writes a new version that keeps the
// picture, each choice showing its price; Undo then Redo brings the exchange back with its versions and
// picture. One axe pass, scoped to the message's actions with Retry's choices open.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectSameMediaSrc } from "./support/media-url";
import { type ConsoleWatch, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("turns"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByRole("listitem");
const narrator = (page: Page) => messages(page).filter({ hasText: "Narrator:" });
const picture = (page: Page) => narrator(page).last().getByRole("button", { name: "Generated story image" });
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });
const answerText = async (page: Page) =>
  (await narrator(page).last().locator(".rounded-2xl").first().innerText())
    .replace(/^Narrator:\s*/, "")
    .trim();
const balance = async (page: Page) =>
  (await (await page.request.get("/api/credit-balance", { headers: bearer(writer) })).json())
    .remaining as number;

test("continue in place, retry new words keeping the picture, undo then redo", async ({ page }) => {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "Vault", context: "A bank vault under a drowned city" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, writer);
  await page.goto(`/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Vault" })).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "Image", exact: true }).click();
  await page.getByLabel("Message", { exact: true }).fill("I turn the great wheel of the vault door");
  await page.getByLabel("Message", { exact: true }).press("Enter");
  await expect(picture(page)).toBeVisible({ timeout: 60_000 });
  const src = (await picture(page).locator("img").getAttribute("src")) ?? "";
  const first = await answerText(page);

  // Continue: the same message grows (version 2), priced as a chat turn; the picture stays.
  let before = await balance(page);
  const continueButton = narrator(page)
    .last()
    .getByRole("button", { name: /^Continue/ });
  await expect(continueButton).toHaveAccessibleName("Continue 0.5 credits");
  await continueButton.click();
  await expect(narrator(page).last().getByText("2 / 2")).toBeVisible({ timeout: 30_000 });
  await expect(sendButton(page)).toBeVisible({ timeout: 30_000 });
  await expect(narrator(page)).toHaveCount(1);
  const continued = await answerText(page);
  expect(continued.startsWith(first)).toBe(true);
  expect(continued.length).toBeGreaterThan(first.length);
  await expectSameMediaSrc(picture(page).locator("img"), src);
  await expect.poll(() => balance(page)).toBe(before - 0.5);

  // Retry offers its three choices with their prices; "New words" keeps the picture.
  before = await balance(page);
  await narrator(page).last().getByRole("button", { name: "Retry", exact: true }).click();
  const choices = page.getByRole("group", { name: "Retry choices" });
  await expect(choices.getByRole("button")).toHaveText([
    "New words 0.5 credits",
    "New scene 1.5 credits",
    "Both 1.5 credits",
  ]);
  const axe = await new AxeBuilder({ page })
    .include(".mt-1:has(> fieldset)")
    .options({ resultTypes: ["violations"] })
    .analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  await choices.getByRole("button", { name: /^New words/ }).click();
  await expect(narrator(page).last().getByText("3 / 3")).toBeVisible({ timeout: 30_000 });
  await expect(sendButton(page)).toBeVisible({ timeout: 30_000 });
  const retried = await answerText(page);
  expect(retried).not.toBe(continued);
  await expectSameMediaSrc(picture(page).locator("img"), src);
  await expect.poll(() => balance(page)).toBe(before - 0.5);

  // Undo hides the exchange; Redo (after a reload too) brings it back with its versions and its picture.
  before = await balance(page);
  await narrator(page).last().getByRole("button", { name: "Undo", exact: true }).click();
  await expect(narrator(page)).toHaveCount(0);
  // The Redo stack is the server's: a reload keeps the button.
  await page.reload();
  await page.getByRole("button", { name: "Redo", exact: true }).click();
  await expect(narrator(page)).toHaveCount(1);
  await expect(narrator(page).last().getByText("3 / 3")).toBeVisible();
  await expect(narrator(page).last()).toContainText(retried.slice(0, 40));
  await expectSameMediaSrc(picture(page).locator("img"), src);
  await expect(page.getByRole("button", { name: "Redo", exact: true })).toHaveCount(0);
  expect(await balance(page)).toBe(before);
});
