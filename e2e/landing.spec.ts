// The landing page in a real browser against the real server (built web app, strict CSP, real
// newsletter route). Elements are found by role and visible text, as a visitor would find them.
import { expect, type Page, test } from "@playwright/test";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  watchConsole,
} from "./support/page-checks";

const HERO = { level: 1, name: "Start Your Universe Now" } as const;

let consoleWatch: ConsoleWatch;

test.beforeEach(({ page }) => {
  consoleWatch = watchConsole(page);
});

test.afterEach(() => {
  // Content-Security-Policy violations included, even those Chromium keeps out of the console.
  consoleWatch.assertClean();
});

function header(page: Page) {
  return page.getByRole("banner");
}

test("loads with the hero heading and the marketing claims", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", HERO)).toBeVisible();
  await expect(page).toHaveTitle(/Storyverse/);
  await expect(page.getByRole("heading", { name: "Core Platform Features" })).toBeAttached();
  await expect(page.getByRole("heading", { level: 2, name: "What You Can Create" })).toBeAttached();
  for (const card of [
    "Living Characters",
    "Evolving Artifacts",
    "Cinematic Worlds",
    "5-Second Cinematic Motion Stories",
    "Interactive RPG Games",
    "Product Prototypes",
  ]) {
    await expect(page.getByRole("heading", { level: 3, name: card })).toBeAttached();
  }
  await expect(page.getByText("2K images · 5-second cinematic motion clips")).toBeAttached();
});

test("header anchors scroll their sections into view", async ({ page }) => {
  await page.goto("/");
  const sections = [
    { link: "Features", id: "features", heading: "Core Platform Features" },
    { link: "Studio", id: "studio", heading: "Direct Every Frame" },
    { link: "Gallery", id: "gallery", heading: "Made in Storyverse" },
  ];
  for (const section of sections) {
    await header(page).getByRole("link", { name: section.link, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`#${section.id}$`));
    await expect(page.getByRole("heading", { level: 2, name: section.heading })).toBeInViewport();
  }
  // Still the landing view: in-page anchors never switch views.
  await expect(page.getByRole("heading", HERO)).toBeAttached();
});

test("theme toggle flips the theme and the choice survives a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  const html = page.locator("html");
  await expect(html).toHaveClass(/\bdark\b/);

  await page.getByRole("button", { name: "Toggle theme" }).click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).not.toHaveClass(/\bdark\b/);

  await page.getByRole("button", { name: "Toggle theme" }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
});

test("without a stored theme the system preference decides", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
});

test("the Studio carousel advances on its own", async ({ page }) => {
  await page.goto("/");
  const carousel = page.getByRole("region", { name: "Studio showcase" });
  await carousel.scrollIntoViewIfNeeded();
  const slide = carousel.getByRole("group", { name: /^Slide \d of 5$/ });
  await expect(slide).toHaveCount(1);
  const first = await slide.getAttribute("aria-label");
  expect(first).not.toBeNull();
  await expect(slide).not.toHaveAttribute("aria-label", first ?? "", { timeout: 3000 });
});

test("Get Started opens the auth view and Back to Home returns", async ({ page }) => {
  await page.goto("/");
  await header(page).getByRole("button", { name: "Get Started" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Storyverse" })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  await page.getByRole("button", { name: "Back to Home" }).click();
  await expect(page.getByRole("heading", HERO)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // The URL follows the view, so the browser's own buttons work too.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Welcome to Storyverse" })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", HERO)).toBeVisible();
});

test("a bookmarked view is kept across a reload", async ({ page }) => {
  await page.goto("/auth");
  await expect(page.getByRole("heading", { name: "Welcome to Storyverse" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Welcome to Storyverse" })).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the mobile menu shows the anchors and Get Started", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", HERO)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "no horizontal scrolling at 375 px").toBeLessThanOrEqual(0);

    const bar = header(page);
    await expect(bar.getByRole("link", { name: "Features", exact: true })).toBeHidden();
    await bar.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Menu" });
    for (const name of ["Features", "Studio", "Gallery"]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole("button", { name: "Get Started" })).toBeVisible();

    await menu.getByRole("link", { name: "Gallery", exact: true }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { level: 2, name: "Made in Storyverse" })).toBeInViewport();

    await bar.getByRole("button", { name: "Open menu" }).click();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(bar.getByRole("button", { name: "Open menu" })).toBeFocused();

    await bar.getByRole("button", { name: "Open menu" }).click();
    await menu.getByRole("button", { name: "Get Started" }).click();
    await expect(page.getByRole("heading", { name: "Welcome to Storyverse" })).toBeVisible();
  });
});

test("the email capture box shows the server's message", async ({ page }) => {
  await page.goto("/#gallery");
  const emailBox = page.getByLabel("Email address");

  await emailBox.fill("not-an-email");
  await page.getByRole("button", { name: "Get Early Access" }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();

  await emailBox.fill(`e2e-${Date.now()}@example.com`);
  const responsePromise = page.waitForResponse(
    (response) => response.url().endsWith("/api/newsletter") && response.request().method() === "POST",
  );
  await page.getByRole("button", { name: "Get Early Access" }).click();
  const response = await responsePromise;
  expect(response.status()).toBe(201);
  const body: { message: string } = await response.json();
  expect(body.message.length).toBeGreaterThan(0);
  await expect(page.getByRole("status").filter({ hasText: body.message })).toBeVisible();
  await expect(emailBox).toHaveValue("");
});

// One walk in the light theme, with axe in both themes at each view.
test("no serious or critical axe violations in either theme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  await page.goto("/");
  await expect(page.getByRole("heading", HERO)).toBeVisible();
  await expect(page.locator("html")).toHaveClass(/\blight\b/);
  // Hold the carousel still so the page does not change while axe reads it.
  await page.getByRole("button", { name: "Pause slideshow" }).click();

  await expectNoSeriousAxeViolationsInBothThemes(page, "the landing page");
  await header(page).getByRole("button", { name: "Get Started" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Storyverse" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "the auth view");
});
