// First steps (issue 46 item 4): a newcomer's empty Stories page at 1440x900 shows the ready-made scenarios
// without scrolling: the "Start from a scenario" heading and every scenario card, picture and words, lie
// inside the first screen, in light and dark. At 390 px the page still fits its width. axe on each.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";
import { newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

let sink: Mailbox;
let newcomer: SignedInAccount;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  newcomer = await registerVerified(request, sink, baseURL!, newAccount("firststeps"));
});

async function openEmptyList(page: Page, theme: "light" | "dark") {
  await storeSession(page, newcomer, theme);
  await page.goto("/stories");
  await expect(page.getByRole("heading", { level: 2, name: "Welcome to Your Stories" })).toBeVisible({
    timeout: 30_000,
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`the scenarios are seen without scrolling on the empty Stories page at 1440x900 (${theme})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const consoleWatch = watchConsole(page);
    await openEmptyList(page, theme);
    const scenarios = page.getByRole("region", { name: "Start from a scenario" });
    const cards = scenarios.getByRole("button", { name: /^Start “/ });
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThanOrEqual(3);
    for (const image of await scenarios.locator("img").all()) {
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    }

    // Nothing scrolled, and the heading and every whole card inside the first screen.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const heading = await scenarios.getByRole("heading", { name: "Start from a scenario" }).boundingBox();
    expect(heading!.y).toBeGreaterThan(0);
    expect(heading!.y + heading!.height).toBeLessThanOrEqual(900);
    for (const card of await cards.all()) {
      const box = await card.boundingBox();
      expect(box, "a scenario card").not.toBeNull();
      expect(box!.y + box!.height, "the card's bottom edge").toBeLessThanOrEqual(900);
    }
    // The welcome still says what a story is and still offers to create one.
    await expect(page.getByText("Each story is like a saved game", { exact: false })).toBeVisible();
    await expect(page.getByRole("button", { name: "Create New Story" })).toHaveCount(2);

    await shoot(page, `first-steps-1440-${theme}`);
    await expectNoSeriousAxeViolations(page, `empty Stories page at 1440x900 (${theme})`);
    consoleWatch.assertClean();
  });
}

test("the empty Stories page fits a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openEmptyList(page, "dark");
  await expect(page.getByRole("region", { name: "Start from a scenario" })).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await shoot(page, "first-steps-390-dark", { fullPage: true });
});
