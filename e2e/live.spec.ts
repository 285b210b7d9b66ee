// The live story in a real browser: the narrator's words appear as they are written (the offline narrator
// streams at about 20 words a second), and Stop keeps the words so far, charges only the text and makes
// no picture.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { type ConsoleWatch, sampleNewestMessage, watchConsole } from "./support/page-checks";
import { newAccount, registerVerified, storeSession } from "./support/session";

let sink: Mailbox;
let consoleWatch: ConsoleWatch;

test.beforeAll(async () => {
  sink = openMailbox();
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const narratorMessages = (page: Page) =>
  page.getByRole("list", { name: "Messages" }).getByRole("listitem").filter({ hasText: "Narrator:" });

async function openMainChat(page: Page, request: Parameters<typeof registerVerified>[0], baseURL: string) {
  const account = await registerVerified(request, sink, baseURL, newAccount("live"));
  await storeSession(page, account);
  await page.goto("/chat");
  await expect(page.getByRole("heading", { level: 1, name: "Main Story" })).toBeVisible();
  return account;
}

async function send(page: Page, mode: "Chat" | "Image", text: string) {
  await page.getByRole("button", { name: mode, exact: true }).click();
  await messageBox(page).fill(text);
  await messageBox(page).press("Enter");
}

test("the narrator's words appear as they are written, with Stop in place of Send meanwhile", async ({
  page,
  request,
  baseURL,
}) => {
  await openMainChat(page, request, baseURL ?? "");
  const sampled = await sampleNewestMessage(page);
  await send(page, "Chat", "I follow the lantern light into the forest");
  const stop = page.getByRole("button", { name: "Stop the narrator" });
  await expect(stop).toBeVisible();
  await expect(page.getByRole("button", { name: "Send message" })).toHaveCount(0);
  // Done: Send is back and the answer is whole.
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 20_000 });
  await expect(stop).toHaveCount(0);
  const seen = await sampled();
  const finalText = (await narratorMessages(page).last().textContent()) ?? "";
  // Painted more than once before the end, each paint a longer beginning of the final answer.
  const partial = seen.filter((text) => text !== finalText);
  expect(partial.length).toBeGreaterThan(3);
  for (const text of partial.slice(1)) expect(finalText.startsWith(text.trim().slice(0, 40))).toBe(true);
});

test("Stop keeps the words so far, charges only the text and paints no picture", async ({
  page,
  request,
  baseURL,
}) => {
  await openMainChat(page, request, baseURL ?? "");
  await expect(page.getByRole("button", { name: "15 credits" })).toBeVisible();
  await send(page, "Image", "I open the old gate");
  const stop = page.getByRole("button", { name: "Stop the narrator" });
  await expect(stop).toBeVisible();
  await stop.click();
  // A loaded machine can take a while to end the stream and say so.
  await expect(page.getByText("Stopped: only the text was charged.")).toBeVisible({ timeout: 30_000 });
  const kept = (await narratorMessages(page).last().textContent()) ?? "";
  expect(kept.replace("Narrator:", "").trim().length).toBeGreaterThan(0);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  // 15 - 0.5 for the text; the image part came back.
  await expect(page.getByRole("button", { name: "14.5 credits" })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Painting the scene…")).toHaveCount(0);
  // After a reload the stopped message is the server's, with the same words.
  await page.reload();
  // A loaded machine can take a while to end the stream and say so.
  await expect(page.getByText("Stopped: only the text was charged.")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Scene canvas" }).locator("img")).toHaveCount(0);
});
