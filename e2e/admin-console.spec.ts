// The admin console (issue 44, decision 0140), walked by an administrator on a server of its own: the first
// administrator is made by the command line (`admin.ts make-admin`, on PGlite while the server is stopped, as
// an operator does), then the console is reached from the account menu, an account is found, opened,
// verified, granted and charged back credits with a reason, disabled (the player's own session ends) and
// enabled, set unlimited, signed out; the install's caps are set. Then the tabs of decision 0150: Usage (a chart
// and its CSV), Health (a vendor call's latency), Moderation (a share link taken down: dead at once, its owner
// told why), and an account's forced password reset and deletion. Light, dark and a 390 px phone; axe clean.
// A player sees no console link, and /admin shows them the unknown screen.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type APIRequestContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from "@playwright/test";
import { type OwnServer, startOwnServer } from "./support/own-server";
import { expectNoSeriousAxeViolationsInBothThemes, shoot, watchConsole } from "./support/page-checks";
import { newAccount, type SignedInAccount, storeSession, type TestAccount } from "./support/session";

const port = Number(process.env.E2E_ADMIN_PORT ?? 3192) + 10 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "storyverse-e2e-admin-"));
const env = { REQUIRE_EMAIL_VERIFICATION: "false", DATA_DIR: dataDir };

let server: OwnServer | null = null;
let api: APIRequestContext;
let admin: SignedInAccount;
let player: SignedInAccount;

test.describe.configure({ mode: "serial" });

/** The command line, as `npm run admin` runs it (from source: the spec does not build the server). */
function runAdmin(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/src/admin.ts", ...args], {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, ...env, LOG_LEVEL: "warn" },
      stdio: "ignore",
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

async function signUp(account: TestAccount): Promise<SignedInAccount> {
  const registered = await api.post("/api/register", { data: account });
  expect(registered.ok(), await registered.text()).toBe(true);
  const body = (await registered.json()) as {
    access_token: string;
    user_id: string;
    credits_remaining: number;
  };
  return { ...account, token: body.access_token, userId: body.user_id, credits: body.credits_remaining };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startOwnServer(port, env);
  api = await playwrightRequest.newContext({ baseURL: server.baseURL });
  const adminAccount = newAccount("boss");
  admin = await signUp(adminAccount);
  player = await signUp(newAccount("player"));
  // PGlite is one process's database: the command line runs while the server is stopped.
  await server.stop();
  expect(await runAdmin(["make-admin", adminAccount.email])).toBe(0);
  server = await startOwnServer(port, env);
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
});

async function openApp(page: Page, account: SignedInAccount, theme: "light" | "dark") {
  await page.goto(`${server?.baseURL}/robots.txt`);
  await storeSession(page, account, theme);
  await page.goto(`${server?.baseURL}/stories`);
  await expect(page.getByRole("heading", { name: "Your Stories", exact: true })).toBeVisible();
}

const accountMenu = (page: Page) => page.getByRole("button", { name: "Account menu" });
const detail = (page: Page) => page.getByRole("region", { name: player.username });

test("an administrator walks the console: users, credits, disable, unlimited, sessions, caps and the audit log", async ({
  page,
}) => {
  test.setTimeout(200_000);
  const watch = watchConsole(page);
  await openApp(page, admin, "light");
  await accountMenu(page).click();
  await page.getByRole("menuitem", { name: "Admin console" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Accounts" }).getByRole("button")).toHaveCount(2);

  // Find the player by part of their email and open the account.
  await page.getByLabel("Search accounts").fill(player.email.slice(0, 12).toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  const rows = page.getByRole("list", { name: "Accounts" }).getByRole("button");
  await expect(rows).toHaveCount(1);
  await rows.first().click();
  await expect(detail(page).getByText("Not verified")).toBeVisible();
  await expect(detail(page).getByText("15 credits", { exact: true })).toBeVisible();
  await shoot(page, "admin-user-light", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, an account open");

  await detail(page).getByRole("button", { name: "Mark verified" }).click();
  await expect(detail(page).getByText("Verified", { exact: true })).toBeVisible();

  // Credits need a reason; a grant and a take-back show in the balance at once.
  await detail(page).getByRole("textbox", { name: "Credits", exact: true }).fill("5");
  await detail(page).getByRole("button", { name: "Grant" }).click();
  await expect(detail(page).getByText("A reason is required.")).toBeVisible();
  await detail(page).getByLabel("Reason").fill("Welcome to the group");
  await detail(page).getByRole("button", { name: "Grant" }).click();
  await expect(detail(page).getByText("Granted 5 credits.")).toBeVisible();
  await expect(detail(page).getByText("20 credits", { exact: true })).toBeVisible();
  await detail(page).getByRole("textbox", { name: "Credits", exact: true }).fill("2.5");
  await detail(page).getByLabel("Reason").fill("Duplicate grant");
  await detail(page).getByRole("button", { name: "Take back" }).click();
  await expect(detail(page).getByText("17.5 credits", { exact: true })).toBeVisible();
  const history = await api.get("/api/credit-history", {
    headers: { Authorization: `Bearer ${player.token}` },
  });
  const rowsSeen = ((await history.json()) as { transactions: { description: string }[] }).transactions;
  expect(rowsSeen.map((row) => row.description).slice(0, 2)).toEqual([
    "2.5 credits taken back by an administrator: Duplicate grant",
    "5 credits granted by an administrator: Welcome to the group",
  ]);

  // Disabling ends the player's session at once; enabling lets them sign in again.
  const verify = () => api.get("/api/user/verify", { headers: { Authorization: `Bearer ${player.token}` } });
  expect((await verify()).status()).toBe(200);
  await detail(page).getByRole("button", { name: "Disable account" }).click();
  await expect(detail(page).getByText("Disabled", { exact: true })).toBeVisible();
  expect((await verify()).status()).toBe(401);
  const refused = await api.post("/api/login", { data: { email: player.email, password: player.password } });
  expect(refused.status()).toBe(403);
  await detail(page).getByRole("button", { name: "Enable account" }).click();
  await expect(detail(page).getByText("Active", { exact: true })).toBeVisible();
  const login = await api.post("/api/login", { data: { email: player.email, password: player.password } });
  expect(login.status()).toBe(200);
  player = { ...player, token: ((await login.json()) as { access_token: string }).access_token };

  await detail(page).getByRole("button", { name: "Set unlimited" }).click();
  await expect(detail(page).getByText("Unlimited", { exact: true })).toBeVisible();
  await detail(page).getByRole("button", { name: "Revoke sessions" }).click();
  await expect(detail(page).getByText("Signed out of 1 device.")).toBeVisible();
  expect((await verify()).status()).toBe(401);

  // The install's caps.
  await page.getByRole("button", { name: "Caps", exact: true }).click();
  await page.getByLabel("Daily cap per account").fill("40");
  await page.getByLabel("Install's daily cap").fill("500");
  await page.getByRole("button", { name: "Save caps" }).click();
  await expect(page.getByText("Caps saved.")).toBeVisible();
  await shoot(page, "admin-caps-light", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, caps");
  const caps = await api.get("/api/admin/caps", { headers: { Authorization: `Bearer ${admin.token}` } });
  expect(await caps.json()).toMatchObject({ daily_default: 40, monthly_default: null, install_daily: 500 });

  // The audit log has each of these actions, newest first, with who did it and why.
  await page.getByRole("button", { name: "Audit log", exact: true }).click();
  const entries = page.getByRole("list", { name: "Audit entries" }).getByRole("listitem");
  await expect(entries.first()).toContainText("Set the caps");
  await expect(entries.first()).toContainText(admin.email);
  await expect(entries.filter({ hasText: "Took back credits" })).toContainText("Reason: Duplicate grant");
  await expect(entries.filter({ hasText: "Signed an account out" })).toContainText(player.email);
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, audit log");
  watch.assertClean();
});

test("the console in dark and on a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, admin, "dark");
  await page.goto(`${server?.baseURL}/admin`);
  await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
  await page.getByRole("list", { name: "Accounts" }).getByRole("button").first().click();
  await expect(page.getByRole("button", { name: "Revoke sessions" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shoot(page, "admin-phone-dark", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console on a phone");
});

const asUser = (account: SignedInAccount) => ({ headers: { Authorization: `Bearer ${account.token}` } });

test("Usage, Health and Moderation, and an account's forced reset and deletion", async ({ page }) => {
  test.setTimeout(200_000);
  const login = await api.post("/api/login", { data: { email: player.email, password: player.password } });
  player = { ...player, token: ((await login.json()) as { access_token: string }).access_token };
  // A new player plays a turn (a vendor call, and 0.5 credits charged in the ledger); the player shares a story.
  const spender = await signUp(newAccount("spender"));
  const turn = await api.post("/api/chat", {
    ...asUser(spender),
    data: { prompt: "I light the lantern", chat_mode: "chat" },
  });
  expect(turn.ok(), await turn.text()).toBe(true);
  const made = await api.post("/api/stories", {
    ...asUser(player),
    data: { title: "Lantern road", context: "x" },
  });
  const story = ((await made.json()) as { story: { id: string } }).story;
  const shared = await api.post(`/api/stories/${story.id}/share`, asUser(player));
  const shareUrl = ((await shared.json()) as { url: string }).url;
  const token = shareUrl.split("/s/")[1]!;
  expect((await api.get(`/api/shared/${token}`)).status()).toBe(200);
  const leaver = await signUp(newAccount("leaver"));

  const watch = watchConsole(page);
  await openApp(page, admin, "light");
  await page.goto(`${server?.baseURL}/admin`);

  // Usage: a chart of the last 30 days and its table; the CSV downloads under the server's name.
  await page.getByRole("button", { name: "Usage", exact: true }).click();
  await expect(page.getByRole("img", { name: /^Credits spent per day from / })).toBeVisible();
  await page.getByRole("button", { name: "By kind" }).click();
  const textRow = page.getByRole("row", { name: /^Text / });
  await expect(textRow.getByRole("cell").first()).toHaveText("0.5");
  await expect(page.getByText("0.5 credits", { exact: true }).first()).toBeVisible();
  await shoot(page, "admin-usage-light", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, usage");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    /^storyverse-usage-kind-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const csv = await (await download.createReadStream()).toArray();
  const lines = Buffer.concat(csv).toString("utf8").split("\r\n");
  expect(lines[0]).toBe("kind,text,pictures,clips,speech,films,other,credits,uses");
  expect(lines[1]).toMatch(/^text,/);

  // Health: the turn's text call, with its latency.
  await page.getByRole("button", { name: "Health", exact: true }).click();
  const vendors = page.getByRole("region", { name: "AI vendors, last hour" });
  await expect(vendors.getByRole("row").filter({ hasText: "text" }).first()).toBeVisible();
  await expect(page.getByText("Event streams open")).toBeVisible();
  await shoot(page, "admin-health-light", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, health");

  // Moderation: the player's link, found by their email, taken down with a reason.
  await page.getByRole("button", { name: "Moderation", exact: true }).click();
  await page.getByLabel("Search share links").fill(player.email);
  await page.getByRole("button", { name: "Search" }).click();
  const links = page.getByRole("list", { name: "Share links" }).getByRole("listitem");
  await expect(links).toHaveCount(1);
  await expect(links.first()).toContainText("Lantern road");
  await links.first().getByRole("button", { name: "Take down the link to Lantern road" }).click();
  await page.getByLabel("Reason the owner sees").fill("Copied from a published book");
  await shoot(page, "admin-moderation-light", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, moderation");
  await page.getByRole("button", { name: "Take link down" }).click();
  await expect(
    page.getByText("The link to “Lantern road” is down. Its owner sees your reason."),
  ).toBeVisible();
  expect((await api.get(`/api/shared/${token}`)).status()).toBe(404);
  const ownerView = await api.get(`/api/stories/${story.id}/share`, asUser(player));
  expect(await ownerView.json()).toMatchObject({
    shared: false,
    taken_down: { reason: "Copied from a published book" },
  });

  // An account: a forced password reset signs it out; then it is deleted, the email typed again.
  await page.getByRole("button", { name: "Users", exact: true }).click();
  await page.getByLabel("Search accounts").fill(leaver.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("list", { name: "Accounts" }).getByRole("button").first().click();
  const leaverDetail = page.getByRole("region", { name: leaver.username });
  await leaverDetail.getByRole("button", { name: "Force password reset" }).click();
  await leaverDetail.getByLabel("Reason (optional)").fill("Password seen in a leak");
  await leaverDetail.getByRole("button", { name: "Reset password and sign out" }).click();
  await expect(
    leaverDetail.getByText(`A link to set a new password was mailed to ${leaver.email}.`, { exact: false }),
  ).toBeVisible();
  expect((await api.get("/api/user/verify", asUser(leaver))).status()).toBe(401);
  const oldPassword = await api.post("/api/login", {
    data: { email: leaver.email, password: leaver.password },
  });
  expect(oldPassword.status()).toBe(403);
  await leaverDetail.getByRole("button", { name: "Delete account" }).click();
  await leaverDetail.getByLabel("Reason for deleting").fill("Asked by mail");
  await leaverDetail.getByLabel(`Type ${leaver.email} to confirm`).fill(leaver.email);
  await shoot(page, "admin-delete-light", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, deleting an account");
  await leaverDetail.getByRole("button", { name: "Delete account for good" }).click();
  // The worker makes its archive first (decision 0157), kept for the operator under Archives.
  await expect(
    page.getByText(`${leaver.email} is signed out and disabled, and is being deleted.`, { exact: false }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Archives", exact: true }).click();
  const archive = page
    .getByRole("list", { name: "Archives of deleted accounts" })
    .getByRole("listitem")
    .filter({ hasText: leaver.email });
  await expect(archive).toContainText("Kept until", { timeout: 60_000 });
  await expect(archive).toContainText(`by ${admin.email}`);
  await shoot(page, "admin-archives-light", { fullPage: true });
  await expectNoSeriousAxeViolationsInBothThemes(page, "admin console, archives of deleted accounts");
  const archiveDownload = page.waitForEvent("download");
  await archive.getByRole("button", { name: `Download the archive of ${leaver.email}` }).click();
  expect((await archiveDownload).suggestedFilename()).toMatch(/\.zip$/);
  const gone = await api.get(`/api/admin/users/${leaver.userId}`, asUser(admin));
  expect(gone.status()).toBe(404);

  // The audit log has each action.
  await page.getByRole("button", { name: "Audit log", exact: true }).click();
  const entries = page.getByRole("list", { name: "Audit entries" }).getByRole("listitem");
  await expect(entries.first()).toContainText("Downloaded a deleted account's archive");
  await expect(entries.filter({ hasText: "Deleted an account" })).toHaveCount(1);
  await expect(entries.filter({ hasText: "Took a share link down" })).toContainText(
    "Copied from a published book",
  );
  await expect(entries.filter({ hasText: "Downloaded usage as CSV" })).toHaveCount(1);
  watch.assertClean();
});

test("the new tabs in dark on a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, admin, "dark");
  await page.goto(`${server?.baseURL}/admin`);
  for (const [tab, ready] of [
    ["Usage", page.getByRole("button", { name: "Download CSV" })],
    ["Health", page.getByRole("heading", { name: "AI vendors, last hour" })],
    ["Moderation", page.getByLabel("Search share links")],
  ] as const) {
    await page.getByRole("button", { name: tab, exact: true }).click();
    await expect(ready).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, tab).toBeLessThanOrEqual(0);
    await shoot(page, `admin-${tab.toLowerCase()}-phone-dark`, { fullPage: true });
    await expectNoSeriousAxeViolationsInBothThemes(page, `admin console, ${tab} on a phone`);
  }
});

test("a player sees no console: no link in the account menu, and /admin is the unknown screen", async ({
  page,
}) => {
  const login = await api.post("/api/login", { data: { email: player.email, password: player.password } });
  player = { ...player, token: ((await login.json()) as { access_token: string }).access_token };
  await openApp(page, player, "light");
  await accountMenu(page).click();
  await expect(page.getByRole("menuitem", { name: "Manage Credits" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Admin console" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await page.goto(`${server?.baseURL}/admin`);
  await expect(page.getByRole("heading", { name: "Nothing here yet" })).toBeVisible();
  const answer = await api.get("/api/admin/users", { headers: { Authorization: `Bearer ${player.token}` } });
  expect(answer.status()).toBe(404);
});
