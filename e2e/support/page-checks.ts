// Checks every account test makes: no console errors (Content-Security-Policy violations included),
// and no serious or critical axe violations.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

export interface ConsoleWatch {
  errors: string[];
  /** A failed request the test causes on purpose (e.g. a wrong password's 401) is not an error. */
  allow: (pattern: RegExp) => void;
  assertClean: () => void;
}

/**
 * Chromium reports some Content-Security-Policy violations only as a DevTools issue, not in the console (a
 * blocked `eval`/`new Function` that the page catches, such as a library probing for eval): every page the
 * test opens says each violation out loud as a console error, so the watch below sees it.
 */
function reportCspViolations(page: Page): void {
  page
    .addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        const blocked = event.blockedURI || "inline code";
        console.error(`Content-Security-Policy violation: ${event.effectiveDirective} refused ${blocked}`);
      });
    })
    // The page may already be closing when a test ends early; there is nothing left to watch then.
    .catch(() => {});
}

export function watchConsole(page: Page): ConsoleWatch {
  const errors: string[] = [];
  const allowed: RegExp[] = [];
  reportCspViolations(page);
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return {
    errors,
    allow: (pattern) => allowed.push(pattern),
    assertClean: () => {
      const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(unexpected, "console errors").toEqual([]);
    },
  };
}

/** The browser's own report of a response with this status (the app handles it; the browser still logs it). */
export const failedRequest = (status: number) =>
  new RegExp(`Failed to load resource: the server responded with a status of ${status}\\b`);

export async function expectNoSeriousAxeViolations(page: Page, where: string): Promise<void> {
  // A dialog fading in has text at partial opacity, which axe reports as low contrast: let every finite
  // animation and transition finish before checking what the user ends up seeing.
  // A paused animation never finishes, so the wait is capped.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().iterations ?? 1))
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 5_000)),
    ]),
  );
  // With a modal dialog open the app behind it is hidden from assistive technology (Radix sets aria-hidden on
  // it) and was checked when it was in front: only the dialog is checked then. Only violations are reported
  // in full, which spares axe the detail of every pass.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  const dialogs = page.locator('[role="dialog"]:visible, [role="alertdialog"]:visible');
  if ((await page.locator('#root[aria-hidden="true"]').count()) === 1 && (await dialogs.count()) === 1) {
    builder.include('[role="dialog"], [role="alertdialog"]');
  }
  const results = await builder.analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
  expect(blocking, `axe on ${where}`).toEqual([]);
}

/** Every distinct text the newest message shows, sampled by the page itself at each frame. */
export async function sampleNewestMessage(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    const sample = () => {
      const items = document.querySelectorAll('ol[aria-label="Messages"] > li');
      const last = items[items.length - 1]?.textContent ?? "";
      if (last.includes("Narrator:") && seen[seen.length - 1] !== last) seen.push(last);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  return async () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
}

type Theme = "light" | "dark";

/** Switches the open page's theme in place: the theme is a class on <html> (web/src/lib/theme.ts). */
async function showTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((wanted) => {
    document.documentElement.classList.toggle("dark", wanted === "dark");
    document.documentElement.classList.toggle("light", wanted === "light");
  }, theme);
}

/**
 * Axe at this point of a flow in both themes, switching the theme in place: one walk through the flow checks
 * what a light and a dark walk would (the flow itself does not depend on the theme). The page is left in the
 * theme it had.
 */
export async function expectNoSeriousAxeViolationsInBothThemes(page: Page, where: string): Promise<void> {
  const shown: Theme = await page.evaluate(() =>
    document.documentElement.classList.contains("dark") ? "dark" : "light",
  );
  const other: Theme = shown === "dark" ? "light" : "dark";
  // The second theme's pass is work a separate test per theme used to have its own time for.
  test.info().setTimeout(test.info().timeout + 30_000);
  await expectNoSeriousAxeViolations(page, `${where} (${shown})`);
  await showTheme(page, other);
  try {
    await expectNoSeriousAxeViolations(page, `${where} (${other})`);
  } finally {
    await showTheme(page, shown);
  }
}

/** A screenshot for a person to look at, taken only when SHOTS_DIR names a folder (PNG encoding is not free). */
export async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const folder = process.env.SHOTS_DIR;
  if (!folder) return;
  await page.screenshot({ path: `${folder}/${name.replace(/\.png$/, "")}.png`, ...options });
}
