// The interface in other languages (issue #46 item 3, decision 0155), in a real browser against the real server.
// - The pseudo-language en-XA accents every interface string and makes it 40% longer: a walk through the app's
//   screens and dialogs finds no plain-English interface string and no string a layout cuts off, and axe stays
//   clean in both themes.
// - The right-to-left pseudo-language ar-XB mirrors the layout: the sidebar moves to the right, the text starts
//   at the right.
// - A player picks German in the account menu: the interface switches at once, stays German after a reload, is
//   kept on the account (another browser signed in to it opens in German), and credits are formatted the German
//   way.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { pseudoLocalize } from "../web/src/i18n/pseudo";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolationsInBothThemes, shoot } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { findUntranslated, type LanguageFindings } from "./support/untranslated";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

let sink: Mailbox;
let player: SignedInAccount;
let storyId: string;
const STORY_TITLE = "The Lantern Quay";

const germanOf = (namespace: string) =>
  JSON.parse(readFileSync(new URL(`../web/src/i18n/locales/de/${namespace}.json`, import.meta.url), "utf8"));
const german = { common: germanOf("common"), stories: germanOf("stories") };

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  player = await registerVerified(request, sink, baseURL ?? "", newAccount("lingo"));
  const created = await request.post("/api/stories", {
    headers: bearer(player),
    data: { title: STORY_TITLE, context: "A river port lit by paper lanterns." },
  });
  storyId = (await created.json()).story.id as string;
  const turn = await request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(player),
    data: { prompt: "I walk along the quay", chat_mode: "chat" },
  });
  expect(turn.ok()).toBe(true);
});

async function useLanguage(page: Page, language: string) {
  await storeSession(page, player, "light");
  await page.evaluate((l) => localStorage.setItem("language", l), language);
}

const px = (english: string) => pseudoLocalize(english);

/** The page has drawn what it loads: nothing busy or shimmering (the live event stream never goes idle). */
async function settled(page: Page) {
  await expect
    .poll(() => page.locator('[aria-busy="true"], .animate-pulse').count(), {
      timeout: 30_000,
    })
    .toBe(0);
}

test("every screen in the pseudo-language: nothing left in English, nothing cut off", async ({ page }) => {
  const findings: Record<string, LanguageFindings> = {};
  const known = [player.username, player.email, STORY_TITLE];
  const check = async (where: string) => {
    const found = await findUntranslated(page, known);
    if (found.untranslated.length || found.clipped.length) findings[where] = found;
  };

  await useLanguage(page, "en-XA");
  for (const [path, heading] of [
    ["/stories", "Your Stories"],
    ["/studio", "Studio"],
    ["/library", "Your Media Gallery"],
    ["/subscription", "Manage Credits"],
    ["/news", "Updates & News"],
    ["/chat", null],
  ] as const) {
    await page.goto(path);
    if (heading) await expect(page.getByRole("heading", { level: 1, name: px(heading) })).toBeVisible();
    await settled(page);
    await check(path);
  }
  await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
  await expectNoSeriousAxeViolationsInBothThemes(page, "chat in en-XA");

  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: STORY_TITLE })).toBeVisible({ timeout: 30_000 });
  await settled(page);
  await check("story");
  await expectNoSeriousAxeViolationsInBothThemes(page, "story in en-XA");
  for (const dialogName of ["Story Settings", "Story Cards", "What the narrator sees", "Share & export"]) {
    await page.getByRole("button", { name: px(dialogName) }).click();
    await expect(page.getByRole("dialog").first()).toBeVisible();
    await settled(page);
    await check(`story: ${dialogName}`);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  }
  await page.getByRole("button", { name: px("Account menu") }).click();
  await expect(page.getByRole("menu")).toBeVisible();
  await check("account menu");
  await page.keyboard.press("Escape");
  if (process.env.SHOTS_DIR) await shoot(page, "language-pseudo-story");

  // Signed out: the landing page and the sign-in screen.
  await page.evaluate(() => {
    localStorage.removeItem("token");
    localStorage.removeItem("user");
  });
  await page.goto("/");
  await settled(page);
  await check("landing");
  await page.goto("/auth");
  await expect(page.getByRole("button", { name: px("Forgot password?") })).toBeVisible();
  await check("sign in");
  await expectNoSeriousAxeViolationsInBothThemes(page, "sign in in en-XA");

  expect(findings).toEqual({});
});

test("a right-to-left language mirrors the layout", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await useLanguage(page, "ar-XB");
  await page.goto("/stories");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1, name: px("Your Stories") })).toBeVisible();
  const nav = page.getByRole("navigation").first();
  const box = (await nav.boundingBox()) ?? { x: 0, width: 0 };
  // The sidebar sits against the right edge, and a heading starts at the right of its column.
  expect(box.x + box.width).toBeGreaterThan(1280 - 8);
  expect(box.x).toBeGreaterThan(640);
  const heading = (await page.getByRole("heading", { level: 1 }).boundingBox()) ?? { x: 0, width: 0 };
  expect(heading.x + heading.width).toBeGreaterThan(640);
  await expectNoSeriousAxeViolationsInBothThemes(page, "stories in ar-XB");
  if (process.env.SHOTS_DIR) await shoot(page, "language-rtl-stories");
});

test("a player picks German: the app switches, stays German, and the account keeps it", async ({
  page,
  browser,
}) => {
  await storeSession(page, player, "light");
  await page.goto("/stories");
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
  await page.getByRole("button", { name: "Account menu" }).click();
  // By keyboard: "Language" opens its submenu with the arrow key, the choice is taken with Enter.
  await page.getByRole("menuitem", { name: /^Language/ }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("menuitemradio", { name: "Deutsch" })).toBeVisible();
  await page.getByRole("menuitemradio", { name: "Deutsch" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: german.stories.storiesPage.title })).toBeVisible();
  await expect(
    page.getByRole("button", { name: german.common.nav.items.stories, exact: true }).first(),
  ).toBeVisible();
  await expect
    .poll(
      async () => (await (await page.request.get("/api/profile", { headers: bearer(player) })).json()).locale,
    )
    .toBe("de");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: german.stories.storiesPage.title })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "stories in German");
  if (process.env.SHOTS_DIR) await shoot(page, "language-german-stories");

  // Another browser, signed in to the same account with no choice of its own: the account's language wins.
  const elsewhere = await browser.newPage({ locale: "en-US" });
  await storeSession(elsewhere, player, "dark");
  await elsewhere.goto("/stories");
  await expect(elsewhere.locator("html")).toHaveAttribute("lang", "de");
  await expect(
    elsewhere.getByRole("heading", { level: 1, name: german.stories.storiesPage.title }),
  ).toBeVisible();
  await elsewhere.close();

  // Back to English for the rest of the suite's runs with this account.
  await page.request.patch("/api/profile", { headers: bearer(player), data: { locale: "en" } });
});
