// The installable app (issue 46 item 2, decision 0139) in a real browser against the real server. Lighthouse
// cannot run here, so Chromium's own installability check (the DevTools protocol's, which Lighthouse reads) is
// asked instead, after the test has checked what it checks: the manifest is linked and valid (name, short_name,
// start_url, display standalone, 192 and 512 pixel icons, maskable ones too) and a service worker controls the
// page. With the network cut, a reload shows the offline page that says what works, not the browser's error,
// and it comes back by itself when the network does. After a story with a picture was read, the worker's caches
// hold the app's own files only: no API answer, no media link. A new deploy (a new worker script) brings the
// update prompt, and its Reload runs the new version. Screens in light, dark and at 390 px; axe on each.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

const UPDATE_READY = "A new version of Storyverse is ready.";
const OFFLINE_HEADING = "You're offline";
/** What a cut network makes the browser report for the app's own API calls before the reload. */
const DISCONNECTED = /ERR_INTERNET_DISCONNECTED|Failed to fetch/;
const STORY_TITLE = "The Salt Road";

let sink: Mailbox;
let account: SignedInAccount;
let storyId = "";

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  account = await registerVerified(request, sink, baseURL!, newAccount("installer"));
  const story = await request.post("/api/stories", {
    headers: bearer(account),
    data: { title: STORY_TITLE, context: "A caravan crossing a salt desert" },
  });
  expect(story.ok(), await story.text()).toBe(true);
  storyId = (await story.json()).story.id;
  const turn = await request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(account),
    data: { prompt: "I look at the dunes", chat_mode: "image" },
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
});

/** Waits until a service worker controls the page and is running. */
async function controlled(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? "none"), { timeout: 20_000 })
    .toBe("activated");
}

/** Width and height from a PNG's header. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function openStories(page: Page, theme: "light" | "dark") {
  await storeSession(page, account, theme);
  await page.goto("/stories");
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible({
    timeout: 30_000,
  });
  await controlled(page);
}

test("the manifest is linked and valid, a service worker controls the page, and Chromium finds the app installable", async ({
  page,
}) => {
  const consoleWatch = watchConsole(page);
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const answer = await page.request.get(href!);
  expect(answer.ok()).toBe(true);
  expect(answer.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await answer.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest.name).toBe("Storyverse");
  expect(manifest.short_name).toBe("Storyverse");
  expect(manifest.start_url).toBe("/");
  expect(manifest.display).toBe("standalone");
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
  for (const purpose of ["any", "maskable"]) {
    for (const size of [192, 512]) {
      const icon = manifest.icons.find(
        (each) => each.sizes === `${size}x${size}` && each.purpose === purpose,
      );
      expect(icon, `${purpose} icon ${size}`).toBeDefined();
      const file = await page.request.get(icon!.src);
      expect(file.headers()["content-type"]).toBe("image/png");
      expect(pngSize(await file.body())).toEqual({ width: size, height: size });
    }
  }
  // The start page opens (a signed-out visitor gets the landing page; a signed-in one the last view).
  expect((await page.request.get(manifest.start_url)).ok()).toBe(true);

  // The caching headers agree with the worker: its script is asked for afresh, the hashed build is for ever.
  const script = await page.request.get("/sw.js");
  expect(script.headers()["content-type"]).toContain("javascript");
  expect(script.headers()["cache-control"]).toBe("no-cache");
  const entry = await page.locator('script[type="module"][src^="/assets/"]').getAttribute("src");
  expect((await page.request.get(entry!)).headers()["cache-control"]).toContain("immutable");

  await controlled(page);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(new URL("/", page.url()).href);

  // Chromium's own verdict, the one Lighthouse's installability audit reports. Playwright's contexts are
  // off the record, which Chromium lists as a reason of its own; it is about the test's browser, not the app.
  const cdp = await page.context().newCDPSession(page);
  const parsed = await cdp.send("Page.getAppManifest");
  expect(parsed.errors).toEqual([]);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  expect(installabilityErrors.filter((error) => error.errorId !== "in-incognito")).toEqual([]);
  consoleWatch.assertClean();
});

for (const [theme, phone] of [
  ["light", false],
  ["dark", false],
  ["dark", true],
  ["light", true],
] as const) {
  test(`offline, a reload shows the offline page and it comes back by itself (${theme}${phone ? ", phone" : ""})`, async ({
    page,
    context,
  }) => {
    if (phone) await page.setViewportSize({ width: 390, height: 844 });
    const consoleWatch = watchConsole(page);
    consoleWatch.allow(DISCONNECTED);
    await openStories(page, theme);
    const address = page.url();

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: OFFLINE_HEADING })).toBeVisible();
    expect(page.url()).toBe(address);
    await expect(page.getByText("Storyverse can't reach its server right now.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "What works offline" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "What needs a connection" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute("href", address);
    expect(await page.evaluate((name) => document.documentElement.classList.contains(name), theme)).toBe(
      true,
    );
    await shoot(page, `installable-offline-${theme}${phone ? "-phone" : ""}`);
    await expectNoSeriousAxeViolations(page, `offline page (${theme}${phone ? ", phone" : ""})`);

    // Back online: the page reloads by itself onto what the player asked for.
    await context.setOffline(false);
    await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible({
      timeout: 30_000,
    });
    consoleWatch.assertClean();
  });
}

test("the worker keeps the app's own files and never an API answer or a media link", async ({ page }) => {
  await openStories(page, "dark");
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: STORY_TITLE })).toBeVisible({ timeout: 30_000 });
  // The picture of the turn is on screen: its signed link was fetched through the page.
  const picture = page.locator("img[src*='/api/media/']").first();
  await expect(picture).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(request.url);
    }
    return urls;
  });
  const origin = new URL(page.url()).origin;
  const paths = kept.map((url) => {
    expect(new URL(url).origin, url).toBe(origin);
    return new URL(url).pathname + new URL(url).search;
  });
  // The shell is there (the offline page, the app's scripts and styles)...
  expect(paths).toContain("/offline.html");
  expect(paths.some((path) => /^\/assets\/index-[\w-]+\.js$/.test(path))).toBe(true);
  // ...and nothing else than the app's own files: no API answer, no media link, no page.
  for (const path of paths) {
    expect(path, path).toMatch(
      /^\/(assets\/[\w.-]+|icons\/[\w-]+\.png|offline\.(html|css|js)|manifest\.webmanifest|favicon\.svg)$/,
    );
  }
});

/**
 * A deploy, as the browser meets it: the server's worker script changes. The server under test serves one
 * build, so the test gives the worker a new script address instead (the app's register call is pointed at
 * /sw.js?deploy=N, N kept in the page's storage), which the browser treats exactly as changed bytes: it
 * installs the new worker beside the running one and keeps it waiting. Playwright's routing does not see the
 * browser's own update fetch of a worker script, so changing the bytes in flight is not possible here.
 */
async function deployable(page: Page) {
  await page.addInitScript(() => {
    const container = navigator.serviceWorker;
    const register = container.register.bind(container);
    container.register = (url, options) =>
      register(`${String(url)}?deploy=${localStorage.getItem("test-deploy") ?? "1"}`, options);
  });
}

async function deployNextVersion(page: Page) {
  await page.evaluate(async () => {
    localStorage.setItem("test-deploy", "2");
    // Through the wrapper above: /sw.js?deploy=2.
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  });
}

for (const [theme, phone] of [
  ["dark", false],
  ["light", false],
  ["light", true],
] as const) {
  test(`a new deploy brings the update prompt, and Reload runs the new version (${theme}${phone ? ", phone" : ""})`, async ({
    page,
  }) => {
    if (phone) await page.setViewportSize({ width: 390, height: 844 });
    const consoleWatch = watchConsole(page);
    await deployable(page);
    await openStories(page, theme);
    const prompt = page.getByRole("status", { name: "New version" });
    await expect(prompt).toHaveCount(0);

    await deployNextVersion(page);
    await expect(prompt).toContainText(UPDATE_READY);
    await expect(prompt).toContainText("Reload when you're ready, once you've finished what you're typing.");
    await shoot(page, `installable-update-${theme}${phone ? "-phone" : ""}`);
    await expectNoSeriousAxeViolations(page, `update prompt (${theme}${phone ? ", phone" : ""})`);

    // The page is not reloaded behind the player's back: the new worker waits for the click.
    expect(
      await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting),
    ).toBe(true);
    await Promise.all([page.waitForEvent("load"), prompt.getByRole("button", { name: "Reload" }).click()]);
    await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible({
      timeout: 30_000,
    });
    await expect(prompt).toHaveCount(0);
    expect(
      await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting),
    ).toBe(false);
    // The page now runs under the new worker.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL))
      .toContain("deploy=2");
    consoleWatch.assertClean();
  });
}

test("Not now puts the update prompt away", async ({ page }) => {
  await deployable(page);
  await openStories(page, "dark");
  await deployNextVersion(page);
  const prompt = page.getByRole("status", { name: "New version" });
  await expect(prompt).toContainText(UPDATE_READY);
  await prompt.getByRole("button", { name: "Not now" }).click();
  await expect(prompt).toHaveCount(0);
  expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)).toBe(
    true,
  );
});
