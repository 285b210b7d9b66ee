// Organising the Gallery in a real browser against the real server (offline painter; issue 45 items 5 and 9,
// decision 0141): a board made and filled from a selection, a favourite marked from its tile, filters asked of
// the server, the details panel, a selection downloaded as one zip, a favourite deleted with the storage used
// falling; then the Studio's batch size, a new result above the floating composer and "Use this prompt".
// Screens in dark, light and a 390 px phone; axe in both themes; no console errors.
import { readFileSync } from "node:fs";
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

let sink: Mailbox;
let account: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  account = await registerVerified(request, sink, baseURL!, newAccount("organiser"));
  for (const [prompt, batch_size] of [
    ["A lighthouse on a cliff at dusk", 2],
    ["A red fox in fresh snow", 1],
  ] as const) {
    const batch = await request.post("/api/studio/generate-image", {
      headers: bearer(account),
      data: { prompt, batch_size },
      timeout: 60_000,
    });
    expect(batch.ok(), await batch.text()).toBe(true);
  }
  await expect
    .poll(
      async () =>
        ((await (await request.get("/api/gallery", { headers: bearer(account) })).json()).items as []).length,
      { timeout: 60_000 },
    )
    .toBe(3);
});

test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
  await storeSession(page, account, "dark");
});

test.afterEach(() => {
  consoleWatch.assertClean();
});

const tiles = (page: Page) => page.getByRole("list", { name: "Your media" }).getByRole("listitem");

async function usedBytes(page: Page): Promise<number> {
  const res = await page.request.get("/api/media/usage", { headers: bearer(account) });
  return ((await res.json()) as { usedBytes: number }).usedBytes;
}

test("organises a board, favourites, filters, downloads a zip and deletes", async ({ page }) => {
  await page.goto("/library");
  await expect(tiles(page)).toHaveCount(3);

  // A board, made from the filters' row: the Gallery then shows that (empty) board.
  await page.getByRole("button", { name: "New board" }).click();
  const naming = page.getByRole("dialog", { name: "New board" });
  await naming.getByLabel("Board name").fill("Lighthouses");
  await shoot(page, "gallery-new-board");
  await naming.getByRole("button", { name: "Make board" }).click();
  await expect(naming).toBeHidden();
  await expect(page.getByText("Nothing in your Gallery matches these filters")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(tiles(page)).toHaveCount(3);

  // The two lighthouse pictures, found by their prompt, selected and put on the board together.
  await page.getByLabel("Search the Gallery").fill("lighthouse");
  await expect(tiles(page)).toHaveCount(2);
  await page.getByRole("button", { name: "Select" }).click();
  for (const index of [0, 1]) await tiles(page).nth(index).getByRole("button").first().click();
  await expect(page.getByText("2 selected")).toBeVisible();
  await page.getByLabel("Add selected to a board").selectOption({ label: "Lighthouses" });
  await expect(page.getByText("2 selected")).toBeHidden();
  await page.getByRole("button", { name: "Clear search" }).first().click();
  await page.getByLabel("Board").selectOption({ label: "Lighthouses (2)" });
  await expect(tiles(page)).toHaveCount(2);
  await expect(tiles(page).first()).toContainText("lighthouse");

  // A favourite, from its tile's heart; the Favourites filter shows only it.
  const first = tiles(page).first();
  await first.hover();
  const heart = first.getByRole("button", { name: /^Favourite / });
  await heart.click();
  await expect(heart).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByRole("button", { name: "Favourites" }).click();
  await expect(tiles(page)).toHaveCount(1);
  await page.getByLabel("Kind").selectOption({ label: "Clips" });
  await expect(page.getByText("Nothing in your Gallery matches these filters")).toBeVisible();
  await page.getByLabel("Kind").selectOption({ label: "Pictures" });
  await expect(tiles(page)).toHaveCount(1);
  await shoot(page, "gallery-filtered-dark");
  await expectNoSeriousAxeViolationsInBothThemes(page, "gallery with filters");

  // Its details: the prompt, its size, and its board ticked.
  await tiles(page).first().hover();
  await tiles(page)
    .first()
    .getByRole("button", { name: /^Details of / })
    .click();
  const panel = page.getByRole("dialog", { name: "Details" });
  await expect(panel.getByText("A lighthouse on a cliff at dusk")).toBeVisible();
  await expect(panel.getByText(/\d+ × \d+ px, /)).toBeVisible();
  await expect(panel.getByRole("checkbox", { name: "Lighthouses" })).toBeChecked();
  await shoot(page, "gallery-details-dark");
  await expectNoSeriousAxeViolationsInBothThemes(page, "gallery details panel");
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(panel).toBeHidden();

  // Two items downloaded as one zip, holding both originals.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(tiles(page)).toHaveCount(3);
  await page.getByRole("button", { name: "Select" }).click();
  for (const index of [0, 2]) await tiles(page).nth(index).getByRole("button").first().click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^storyverse-gallery-\d{4}-\d\d-\d\d\.zip$/);
  const zip = readFileSync((await download.path())!);
  expect(zip.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
  expect(zip.toString("latin1").match(/storyverse-image-\d{4}-\d\d-\d\d-[0-9a-f]{8}\.png/g)?.length).toBe(4);
  await page.getByRole("button", { name: "Cancel" }).click();

  // The favourite deleted from the Favourites filter: it goes, the storage used falls.
  const before = await usedBytes(page);
  await page.getByRole("button", { name: "Favourites" }).click();
  await expect(tiles(page)).toHaveCount(1);
  await tiles(page).first().hover();
  await tiles(page)
    .first()
    .getByRole("button", { name: /^Delete / })
    .click();
  const dialog = page.getByRole("dialog", { name: "Delete this picture?" });
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Nothing in your Gallery matches these filters")).toBeVisible();
  expect(await usedBytes(page)).toBeLessThan(before);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(tiles(page)).toHaveCount(2);
  await page.getByLabel("Board").selectOption({ label: "Lighthouses (1)" });
  await expect(tiles(page)).toHaveCount(1);

  // The same screens on a phone, in light.
  await page.setViewportSize({ width: 390, height: 844 });
  await storeSession(page, account, "light");
  await page.goto("/library");
  await expect(tiles(page)).toHaveCount(2);
  await shoot(page, "gallery-390-light", { fullPage: true });
  await tiles(page)
    .first()
    .getByRole("button", { name: /^Details of / })
    .click();
  await expect(page.getByRole("dialog", { name: "Details" }).getByText("Prompt")).toBeVisible();
  await shoot(page, "gallery-details-390-light");
});

test("the Studio: batch size as real controls, a new result above the composer, and Use this prompt", async ({
  page,
}) => {
  await page.goto("/studio");
  await page.getByTestId("batch-2").click();
  await expect(page.getByRole("radio", { name: "2 images" })).toBeChecked();
  await expect(page.getByText("3 credits")).toBeVisible();
  await page.getByRole("textbox", { name: "Describe the image" }).fill("A glass greenhouse on the moon");
  await page.getByRole("button", { name: "Generate" }).click();
  const newest = page.getByRole("list", { name: "Results" }).last();
  await expect(newest.getByRole("listitem")).toHaveCount(2, { timeout: 60_000 });
  await expect(newest.getByRole("img").first()).toBeVisible();
  // The new results are above the floating composer, not under it.
  await expect
    .poll(async () => {
      const grid = await newest.boundingBox();
      const composer = await page.getByRole("form", { name: "Studio prompt" }).boundingBox();
      return grid && composer ? Math.round(composer.y - (grid.y + grid.height)) : -1;
    })
    .toBeGreaterThanOrEqual(0);
  await shoot(page, "studio-result-dark");

  await page.getByRole("button", { name: "Advisor" }).click();
  await page.getByRole("textbox", { name: "Ask the prompt advisor" }).fill("A prompt for a foggy harbour?");
  await page.getByRole("button", { name: "Send" }).click();
  const use = page.getByRole("button", { name: "Use this prompt" }).last();
  await expect(use).toBeVisible({ timeout: 60_000 });
  await use.click();
  await expect(page.getByRole("button", { name: "Image", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  const box = page.getByRole("textbox", { name: "Describe the image" });
  await expect(box).toBeFocused();
  expect((await box.inputValue()).length).toBeGreaterThan(0);
  await shoot(page, "studio-use-prompt-dark");
  await expectNoSeriousAxeViolationsInBothThemes(page, "studio with results and the advisor");

  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, "studio-390-dark");
});
