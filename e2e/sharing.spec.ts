// Share links in a real browser against the real server: the owner makes a link from the story's
// "Share & export" dialog, a signed-out reader opens it and sees the story (its words inert, its picture
// loaded, nothing of the account), and the moment the owner revokes it the page is a plain 404.

import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolations, failedRequest, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

test.describe.configure({ mode: "serial" });

const TITLE = "Lanterns <b>Shared</b>";
const INJECTED = '<img src=x onerror="window.__pwned=1"> I open the gate';

let sink: Mailbox;
let owner: SignedInAccount;
let storyId: string;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  owner = await registerVerified(request, sink, baseURL ?? "", newAccount("sharer"));
  const created = await request.post("/api/stories", {
    headers: bearer(owner),
    data: { title: TITLE, context: "A misty forest of floating lanterns" },
  });
  storyId = ((await created.json()) as { story: { id: string } }).story.id;
  const turn = await request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(owner),
    data: { prompt: INJECTED, chat_mode: "image" },
  });
  const { message_id } = (await turn.json()) as { message_id: string };
  await expect
    .poll(
      async () => {
        const status = await request.get(`/api/stories/${storyId}/media-status/${message_id}`, {
          headers: bearer(owner),
        });
        return ((await status.json()) as { status: string }).status;
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe("completed");
});

async function openShareDialog(page: Page) {
  await storeSession(page, owner);
  await page.goto("/stories");
  await page.getByRole("button", { name: TITLE, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await openStoryTool(page, "Share & export");
  return page.getByRole("dialog", { name: "Share & export" });
}

test("a share link works signed out, leaks nothing, and stops the moment it is revoked", async ({
  page,
  browser,
}) => {
  const ownerConsole = watchConsole(page);
  const dialog = await openShareDialog(page);
  // The film's price is shown before it is started.
  await expect(dialog.getByText("Free: it reuses the scenes you already made")).toBeVisible();
  // Exports are made by a job whose progress the player sees, then download as files named after the story.
  const downloading = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "EPUB book" }).click();
  await expect(dialog.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
  await expect(dialog.getByText(/^Preparing your EPUB book… \d+%$/)).toBeVisible();
  const epub = await downloading;
  expect(epub.suggestedFilename()).toBe("Lanterns-b-Shared-b.epub");
  await expect(dialog.getByRole("progressbar", { name: "Export progress" })).toHaveCount(0);
  const epubPath = await epub.path();
  expect(epubPath).toBeTruthy();
  // Asked for again with the story unchanged: the server answers with the book it made, the same file.
  const again = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "EPUB book" }).click();
  const epubAgain = await again;
  expect(epubAgain.suggestedFilename()).toBe("Lanterns-b-Shared-b.epub");
  expect((await readFile(await epubAgain.path())).equals(await readFile(epubPath))).toBe(true);
  await dialog.getByRole("button", { name: "Create share link" }).click();
  const linkBox = dialog.getByRole("textbox", { name: "Share link" });
  await expect(linkBox).toHaveValue(/\/s\/[A-Za-z0-9_-]{22}$/);
  const url = await linkBox.inputValue();

  // A reader with no account and no stored session.
  const reader = await browser.newContext();
  const readerPage = await reader.newPage();
  const readerConsole = watchConsole(readerPage);
  const response = await readerPage.goto(url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-robots-tag"]).toContain("noindex");
  await expect(readerPage.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(readerPage.locator('meta[property="og:title"]')).toHaveAttribute("content", TITLE);
  // The player's line shows as the literal text it is: no element made, no script run.
  await expect(readerPage.getByText(INJECTED)).toBeVisible();
  expect(await readerPage.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  const scene = readerPage.getByRole("img", { name: "The scene" });
  await expect(scene).toBeVisible();
  await expect
    .poll(() => scene.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
      timeout: 30_000,
    })
    .toBe(true);
  const pageText = await readerPage.locator("body").innerText();
  const html = await readerPage.content();
  for (const secret of [owner.email, owner.username, owner.userId, storyId]) {
    expect(pageText).not.toContain(secret);
    expect(html).not.toContain(secret);
  }
  await expectNoSeriousAxeViolations(readerPage, "the shared story page");
  const pictureUrl = await scene.getAttribute("src");

  // The owner revokes; the very next load of the link is the plain 404 page, and its media are gone too.
  await dialog.getByRole("button", { name: "Revoke link" }).click();
  await expect(dialog.getByRole("button", { name: "Create share link" })).toBeVisible();
  readerConsole.allow(failedRequest(404));
  const gone = await readerPage.goto(url);
  expect(gone?.status()).toBe(404);
  await expect(
    readerPage.getByText("This shared story does not exist or is no longer shared."),
  ).toBeVisible();
  await expect(readerPage.getByText(INJECTED)).toHaveCount(0);
  const picture = await readerPage.request.get(pictureUrl ?? "");
  expect(picture.status()).toBe(404);
  readerConsole.assertClean();
  ownerConsole.assertClean();
  await reader.close();
});
