// Leave with your data (decision 0143) in a real browser against the real server: on the account page the
// player downloads their data (the archive's progress, then a download that is a zip holding the story's
// backup and the profile), then deletes the account: a wrong password is refused in the dialog with nothing
// deleted, the right one deletes it and lands them signed out; the old session is refused and the password
// no longer signs in. axe on the card and the dialog in both themes.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  failedRequest,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

let consoleWatch: ConsoleWatch;
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

test("download my data, then delete the account and land signed out", async ({ page, request, baseURL }) => {
  test.setTimeout(180_000);
  const sink = openMailbox();
  const account = await registerVerified(request, sink, baseURL!, newAccount("leaver"));
  const story = await request.post("/api/stories", {
    headers: bearer(account),
    data: { title: "The Last Lighthouse", context: "A keeper waits for the ship." },
  });
  expect(story.ok()).toBe(true);
  const storyId = (await story.json()).story.id as string;
  const turn = await request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(account),
    data: { prompt: "I climb the stairs", chat_mode: "chat" },
  });
  expect(turn.ok()).toBe(true);

  await storeSession(page, account);
  await page.goto("/subscription");
  const card = page.getByRole("region", { name: "Your data" });
  await expect(card).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolationsInBothThemes(page, "your data card");

  // Download my data: progress, then the archive.
  await card.getByRole("button", { name: "Download my data" }).click();
  const link = card.getByRole("link", { name: /^Download your archive/ });
  await expect(link).toBeVisible({ timeout: 60_000 });
  await expect(card.getByText(/It is kept for 7 days/)).toBeVisible();
  await shoot(page, "leave-archive-ready");
  if (process.env.SHOTS_DIR) {
    await page.evaluate(() => document.documentElement.classList.add("dark"));
    await shoot(page, "leave-archive-ready-dark");
    await page.evaluate(() => document.documentElement.classList.remove("dark"));
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await shoot(page, "leave-archive-ready-phone");
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^storyverse-${account.username}-.*\\.zip$`));
  const bytes = await readFile((await download.path())!);
  const text = bytes.toString("latin1");
  expect(bytes.subarray(0, 2).toString("ascii")).toBe("PK");
  expect(text).toContain("profile.json");
  expect(text).toContain("The-Last-Lighthouse.storyverse.zip");

  // Delete account: a wrong password is refused with nothing deleted.
  await card.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Deleted: Your stories with every branch and message");
  await expect(dialog).toContainText("Kept: For accounting, with nothing that names you");
  await expectNoSeriousAxeViolationsInBothThemes(page, "delete account dialog");
  await shoot(page, "leave-delete-dialog");
  consoleWatch.allow(failedRequest(403));
  await dialog.getByLabel("Your password", { exact: true }).fill("not-my-password");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog.getByRole("alert")).toContainText("That password is not right. Nothing was deleted.");
  expect((await request.get(`/api/stories/${storyId}`, { headers: bearer(account) })).status()).toBe(200);

  // The right password: deleted, and this browser lands signed out.
  await dialog.getByLabel("Your password", { exact: true }).fill(account.password);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByRole("banner").getByRole("button", { name: "Get Started" })).toBeVisible({
    timeout: 30_000,
  });
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  expect((await request.get("/api/profile", { headers: bearer(account) })).status()).toBe(401);
  const login = await request.post("/api/login", {
    data: { email: account.email, password: account.password },
  });
  expect(login.status()).toBe(401);
});
