// Checks every account test makes: no console errors (Content-Security-Policy violations included),
// and no serious or critical axe violations.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

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
  const results = await new AxeBuilder({ page }).analyze();
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
