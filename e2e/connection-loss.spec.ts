// A turn must never hang on a server that went away (issue 18, item 1). The spec runs a copy of the real
// server of its own (e2e/support/own-server.ts) and really stops it in the middle of a video turn: the
// media check fails, the app shows it is offline and that what it shows may be stale, the turn ends with
// 'Failed to check media status.' and the input unlocks. The same server is started again on the same
// data: without a reload the banner goes, the conversation is read again (the video the worker finished
// on its way down appears) and the next turn works. A second test cuts the network under a turn being
// sent (Playwright routing): the message fails with the spec's network message and the app recovers the
// same way when the network is back.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { type OwnServer, startOwnServer } from "./support/own-server";
import { expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";

// A port of its own per Playwright worker: copies of this file (--repeat-each) may run side by side.
const port =
  Number(process.env.E2E_RECOVERY_PORT ?? 3195) + 10 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "storyverse-e2e-recovery-"));
const env = { REQUIRE_EMAIL_VERIFICATION: "false", DATA_DIR: dataDir, SHUTDOWN_DELAY_SECONDS: "0" };

const OFFLINE = "You're offline: the server can't be reached.";
const CHECK_FAILED = "Failed to check media status.";
const NETWORK_ERROR = "Network connection error. Please check your internet and try again.";

let server: OwnServer | null = null;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer(port, env);
});

test.afterAll(async () => {
  await server?.stop();
});

const shot = shoot;
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const connection = (page: Page) => page.getByRole("status", { name: "Connection" });

/** A new account with a story open in the page, signed in the way the app keeps a session. */
async function openNewStory(page: Page, theme: "light" | "dark", title: string) {
  const base = server?.baseURL ?? "";
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const registered = await page.request.post(`${base}/api/register`, {
    data: { username: `gone_${run}`, email: `gone-${run}@example.com`, password: `secret-${run}` },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const auth = (await registered.json()) as {
    access_token: string;
    user_id: string;
    email: string;
    username: string;
    credits_remaining: number;
  };
  const created = await page.request.post(`${base}/api/stories`, {
    headers: { Authorization: `Bearer ${auth.access_token}` },
    data: { title, context: "A lighthouse keeper on a stormy coast" },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { story } = (await created.json()) as { story: { id: string } };
  await page.goto(`${base}/`);
  await page.evaluate(
    ({ a, t }) => {
      localStorage.setItem("token", a.access_token);
      localStorage.setItem(
        "user",
        JSON.stringify({ id: a.user_id, email: a.email, username: a.username, credits_remaining: 15 }),
      );
      localStorage.setItem("theme", t);
    },
    { a: auth, t: theme },
  );
  await page.goto(`${base}/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
}

async function send(page: Page, mode: "Chat" | "Image" | "Video", text: string) {
  await page.getByRole("button", { name: mode, exact: true }).click();
  await messageBox(page).fill(text);
  await messageBox(page).press("Enter");
}

test("the server stops mid video turn: offline, the turn ends, the input unlocks; back without a reload", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const watch = watchConsole(page);
  // The browser logs each request that found no server; that is the point of this test.
  watch.allow(/ERR_CONNECTION_REFUSED|Failed to load resource|ERR_EMPTY_RESPONSE|ERR_CONNECTION_RESET/);
  await openNewStory(page, "dark", "The Drowned Lamp");

  await send(page, "Video", "The lamp goes dark and something climbs the stairs");
  const rendering = page.getByText("Rendering the video…");
  await expect(rendering).toBeVisible({ timeout: 30_000 });
  // The scene being rendered does not hold the composer (issue 26): only the narrator's writing does.
  await expect(page.getByText("Wait for the narrator to finish writing…")).toBeHidden();

  // The server really goes away (SIGTERM: it stops taking requests at once, its worker finishes the job).
  await server?.stop();
  server = null;

  // The media check finds no server: the app says so and marks what it shows as possibly stale...
  await expect(connection(page)).toContainText(OFFLINE, { timeout: 20_000 });
  await expect(connection(page)).toContainText("may be out of date");
  await expect(page.locator("html")).toHaveAttribute("data-connection", "offline");
  // ...the turn ends with the spec's words, and nothing waits any more.
  // The media check gives up after its own retries, which a loaded machine stretches.
  await expect(page.getByText(CHECK_FAILED)).toBeVisible({ timeout: 30_000 });
  await expect(rendering).toBeHidden();
  await expect(page.getByText("Rendering the next video…")).toBeHidden();
  await expect(page.getByText("Wait for the narrator to finish writing…")).toBeHidden();
  await expect(messageBox(page)).toBeEditable();
  await shot(page, "offline-turn-ended-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "offline-turn-ended-390-dark");
  await expectNoSeriousAxeViolations(page, "offline banner (dark)");
  await page.evaluate(() => {
    localStorage.setItem("theme", "light");
    document.documentElement.classList.remove("dark");
    document.documentElement.classList.add("light");
  });
  await shot(page, "offline-turn-ended-390-light");
  await expectNoSeriousAxeViolations(page, "offline banner (light)");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The same server comes back on the same data. No reload: the banner goes by itself...
  server = await startOwnServer(port, env);
  await expect(connection(page)).toBeHidden({ timeout: 20_000 });
  await expect(page.locator("html")).not.toHaveAttribute("data-connection", "offline");
  // ...the conversation is read again: the video finished on the way down is there, the failure note gone.
  await expect(page.getByRole("region", { name: "Scene canvas" }).locator("video")).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText(CHECK_FAILED)).toBeHidden();
  // ...and the next turn goes through.
  await send(page, "Chat", "I light the lamp again");
  await expect(page.getByText("You: I light the lamp again")).toBeVisible();
  await expect(page.getByText("Narrator:")).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByRole("alert")).toHaveCount(0);
  await shot(page, "reconnected-light");
  watch.assertClean();
});

test("the network drops under a turn being sent: the spec's network message, then back when it returns", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const watch = watchConsole(page);
  watch.allow(/Failed to load resource|ERR_FAILED/);
  await openNewStory(page, "light", "The Cut Wire");

  await page.route("**/api/**", (route) => route.abort("internetdisconnected"));
  await send(page, "Chat", "Hello? Is anyone on the line?");
  // The turn fails at once with the spec's network words; the player's message is taken back.
  await expect(page.getByRole("alert")).toContainText(NETWORK_ERROR);
  await expect(connection(page)).toContainText(OFFLINE, { timeout: 15_000 });
  await expect(page.getByText("Wait for the narrator to finish writing…")).toBeHidden();
  await expect(messageBox(page)).toBeEditable();
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await shot(page, "offline-send-failed-light");

  // The network is back: the probe finds the server, the banner goes, and the same words go through.
  await page.unroute("**/api/**");
  await expect(connection(page)).toBeHidden({ timeout: 15_000 });
  await send(page, "Chat", "Hello again, the line is back");
  await expect(page.getByText("You: Hello again, the line is back")).toBeVisible();
  // The narrator answers it (the failed message was never stored: one answer, to the second message).
  await expect(page.getByText("Narrator:")).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByText("You: Hello? Is anyone on the line?")).toHaveCount(0);
  watch.assertClean();
});
