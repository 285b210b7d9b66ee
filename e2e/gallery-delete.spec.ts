// Deleting from the Gallery in a real browser against the real server (offline painter, real SMTP sink for
// sign-up; issue 39 T4-1, decision 0122): the account page shows the media storage used of the quota; a
// Studio picture deleted from its tile after the dialog leaves the grid and the storage used falls; a story's
// picture asks again, naming the story, and once confirmed the story shows that it was deleted; Select
// deletes the rest together. axe on the Gallery with its dialog and on the account page, no console errors.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolations,
  failedRequest,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

const STORY_TITLE = "The Lantern Keeper";
let sink: Mailbox;
let account: SignedInAccount;
let consoleWatch: ConsoleWatch;
let storyId = "";

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  account = await registerVerified(request, sink, baseURL!, newAccount("eraser"));
  // Two Studio pictures, then a story turn with a picture (offline painter).
  const batch = await request.post("/api/studio/generate-image", {
    headers: bearer(account),
    data: { prompt: "A lighthouse on a cliff at dusk", batch_size: 2 },
  });
  expect(batch.ok(), await batch.text()).toBe(true);
  const story = await request.post("/api/stories", {
    headers: bearer(account),
    data: { title: STORY_TITLE, context: "" },
  });
  storyId = (await story.json()).story.id;
  const turn = await request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(account),
    data: { prompt: "I climb the tower", chat_mode: "image" },
  });
  expect(turn.ok(), await turn.text()).toBe(true);
  const messageId = (await turn.json()).message_id as string;
  await expect
    .poll(
      async () =>
        (
          await (
            await request.get(`/api/stories/${storyId}/media-status/${messageId}`, {
              headers: bearer(account),
            })
          ).json()
        ).media_generation_completed,
      { timeout: 60_000 },
    )
    .toBe(true);
  // A Studio batch may finish as a job: wait until the Gallery holds all three pictures.
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
  await storeSession(page, account);
});

test.afterEach(() => {
  consoleWatch.assertClean();
});

/** The account page's "X of Y used", in bytes as the API says it, and the text shown. */
async function storageShown(page: Page): Promise<string> {
  await page.goto("/subscription");
  const used = page.getByTestId("storage-used");
  await expect(used).toHaveText(/ of 2\.0 GB used$/);
  return (await used.textContent()) ?? "";
}

async function usedBytes(page: Page): Promise<number> {
  const res = await page.request.get("/api/media/usage", { headers: bearer(account) });
  return ((await res.json()) as { usedBytes: number }).usedBytes;
}

const tiles = (page: Page) => page.getByRole("list", { name: "Your media" }).getByRole("listitem");

test("deletes a picture from its tile after the dialog, and the account page shows the storage fall", async ({
  page,
}) => {
  const before = await usedBytes(page);
  expect(before).toBeGreaterThan(0);
  const shownBefore = await storageShown(page);
  await expect(page.getByRole("heading", { name: "Media storage" })).toBeVisible();
  await shoot(page, "account-storage");
  await expectNoSeriousAxeViolations(page, "account page with media storage");

  await page.goto("/library");
  await expect(tiles(page)).toHaveCount(3);
  // The newest Studio picture is the second tile (the story's picture came last).
  const studioTile = tiles(page).nth(1);
  await studioTile.hover();
  await studioTile.getByRole("button", { name: /^Delete / }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this picture?" });
  await expect(dialog).toContainText("It is removed from your Gallery and your storage.");
  await shoot(page, "gallery-delete-dialog");
  await expectNoSeriousAxeViolations(page, "gallery delete dialog");
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(tiles(page)).toHaveCount(2);

  const after = await usedBytes(page);
  expect(after).toBeLessThan(before);
  const shownAfter = await storageShown(page);
  expect(shownAfter).not.toBe(shownBefore);
});

test("asks again, naming the story, before deleting a picture a story shows; the story then says it was deleted", async ({
  page,
}) => {
  // The server's 409 (the question) is logged by the browser as a failed request; the page handles it.
  consoleWatch.allow(failedRequest(409));
  await page.goto("/library");
  await expect(tiles(page)).toHaveCount(2);
  const storyTile = tiles(page).first();
  await storyTile.hover();
  await storyTile.getByRole("button", { name: /^Delete / }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toContainText(
    `This picture is shown in your story "${STORY_TITLE}". Delete it anyway?`,
  );
  await shoot(page, "gallery-delete-asks");
  await dialog.getByRole("button", { name: "Delete anyway" }).click();
  await expect(dialog).toBeHidden();
  await expect(tiles(page)).toHaveCount(1);

  await page.goto(`/stories/${storyId}`);
  await expect(page.getByText("This picture was deleted from the Gallery.")).toBeVisible();
  await expect(page.getByText("I climb the tower")).toBeVisible();
});

test("selects what is left and deletes it together", async ({ page }) => {
  const before = await usedBytes(page);
  await page.goto("/library");
  await expect(tiles(page)).toHaveCount(1);
  await page.getByRole("button", { name: "Select" }).click();
  await tiles(page).first().getByRole("button").first().click();
  await expect(page.getByText("1 selected")).toBeVisible();
  await page.getByRole("button", { name: "Delete selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this picture?" });
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("heading", { name: "No Content Yet" })).toBeVisible();
  expect(await usedBytes(page)).toBeLessThan(before);
});
