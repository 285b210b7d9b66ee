// What a first-time user tripped over (issue 18), each seen in a real browser against the real server:
// the register form's messages sit beside their fields and go when fixed; the story form says why Create is
// off, warns at the name's limit and shows the server's reason for a refusal. Screens are looked at in both
// themes and at a 390 px phone width.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  expectNoSeriousAxeViolationsInBothThemes,
  failedRequest,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

let sink: Mailbox;
let writer: SignedInAccount;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("firstuse"));
});

const shot = shoot;

// One walk in the dark theme, with axe in both themes at each view.
test(`register: each field's message beside it, live, gone when fixed`, async ({ page }) => {
  const theme = "dark";
  const watch = watchConsole(page);
  await page.goto("/");
  await page.evaluate((t) => localStorage.setItem("theme", t), theme);
  await page.goto("/auth");
  await page.getByRole("button", { name: "Create one" }).click();
  const username = page.getByLabel("Username");
  const email = page.getByLabel("Email", { exact: true });
  const password = page.getByLabel("Password", { exact: true });
  const confirm = page.getByLabel("Confirm password");

  // Leaving a field with a problem says so beside it, at once.
  await username.fill("ad");
  await username.blur();
  await expect(username).toHaveAccessibleDescription("Username must be at least 3 characters");
  await expect(username).toHaveAttribute("aria-invalid", "true");
  await username.fill("ada_first");
  await expect(username).not.toHaveAccessibleDescription(/must be at least/);
  await expect(username).not.toHaveAttribute("aria-invalid", "true");

  // A send with several problems shows every one of them, each beside its own field.
  await password.fill("12345");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(email).toHaveAccessibleDescription("Enter your email address");
  await expect(password).toHaveAccessibleDescription("Password must be at least 6 characters");
  await expect(confirm).toHaveAccessibleDescription("Type the password again");
  await expect(page.getByRole("alert")).toHaveText("Please fill in all fields");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `register-errors-390-${theme}`);
  await expectNoSeriousAxeViolationsInBothThemes(page, "register with field errors");

  // Each message goes as its field is fixed; the form's own line follows the fields, never stale.
  await email.fill("ada-first@example.com");
  await expect(email).not.toHaveAccessibleDescription("Enter your email address");
  await password.fill("secret1");
  await expect(password).not.toHaveAccessibleDescription(/at least 6/);
  await confirm.fill("secret2");
  await expect(confirm).toHaveAccessibleDescription("Passwords do not match");
  await expect(page.getByRole("alert")).toHaveText("Passwords do not match");
  await confirm.fill("secret1");
  await expect(confirm).not.toHaveAccessibleDescription("Passwords do not match");
  await expect(page.getByRole("alert")).toHaveText("");
  watch.assertClean();
});

async function openStories(page: Page, theme: "light" | "dark") {
  await storeSession(page, writer, theme);
  await page.goto("/stories");
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
}

// One walk in the dark theme, with axe in both themes at each view.
test(`story form: says why Create is off, warns at the limit, and shows the server's reason`, async ({
  page,
}) => {
  const theme = "dark";
  const watch = watchConsole(page);
  watch.allow(failedRequest(400));
  await openStories(page, theme);
  await page.getByRole("button", { name: "Create New Story" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create New Story" });
  const name = dialog.getByLabel("Story Name");
  const create = dialog.getByRole("button", { name: "Create", exact: true });

  await expect(create).toBeDisabled();
  await expect(name).toHaveAccessibleDescription("Give your story a name to create it.");

  // A name longer than 30 is cut to 30, and the form says so.
  await name.fill("The Extraordinarily Long Lantern Forest Chronicle");
  await expect(name).toHaveValue("The Extraordinarily Long Lante");
  await expect(dialog.getByText("30/30")).toBeVisible();
  await expect(name).toHaveAccessibleDescription("That's the limit: a story name has at most 30 characters.");
  await expect(create).toBeEnabled();
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `story-form-limit-390-${theme}`);
  await expectNoSeriousAxeViolationsInBothThemes(page, "create story at the limit");

  // Near the context limit a counter appears.
  const context = dialog.getByLabel("Story Context");
  await expect(dialog.getByText(/\/65000$/)).toHaveCount(0);
  await context.fill("a".repeat(55_250));
  await expect(dialog.getByText("55250/65000")).toBeVisible();

  // The server refuses a context holding a NUL character: its reason is shown, not only the spec's words.
  await name.fill("Nul Story");
  await context.fill("A quiet harbour\u0000 at dawn");
  await create.click();
  await expect(dialog.getByRole("alert")).toContainText("Failed to create story.");
  await expect(dialog.getByRole("alert")).toContainText("must not contain NUL characters");
  watch.assertClean();
});

test("closing the lightbox gives focus back to what opened it", async ({ page, request }) => {
  const made = await request.post("/api/studio/generate-image", {
    headers: { Authorization: `Bearer ${writer.token}` },
    data: { prompt: "a lighthouse at dusk", batch_size: 1, input_images: [] },
  });
  expect(made.ok()).toBe(true);
  await storeSession(page, writer, "light");
  await page.goto("/library");
  await expect(page.getByRole("heading", { name: "Your Media Gallery" })).toBeVisible();
  const opener = page
    .getByRole("main")
    .getByRole("button")
    .filter({ has: page.locator("img") })
    .first();
  await opener.focus();
  await page.keyboard.press("Enter");
  const viewer = page.getByRole("dialog", { name: "Media viewer" });
  await expect(viewer).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
  await expect(opener).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
});

/** WCAG relative luminance contrast of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, b2] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lin = (v: number) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(b2 ?? 0);
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

for (const theme of ["light", "dark"] as const) {
  test(`the focus ring on a primary button stands out from the button and the page (${theme})`, async ({
    page,
  }) => {
    await openStories(page, theme);
    const button = page.getByRole("button", { name: "Create New Story" }).first();
    // Keyboard focus, as a keyboard user gets it.
    await button.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(button).toBeFocused();
    const read = () =>
      button.evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          ring: style.outlineColor,
          width: style.outlineWidth,
          // The page's canvas colour (#rrggbb), as rgb().
          page: (() => {
            const hex = getComputedStyle(document.documentElement).getPropertyValue("--sv-canvas").trim();
            const v = Number.parseInt(hex.slice(1), 16);
            return `rgb(${(v >> 16) & 255}, ${(v >> 8) & 255}, ${v & 255})`;
          })(),
        };
      });
    // The button's colours transition (200 ms): judge the ring once it has settled.
    await page.waitForTimeout(400);
    const colours = await read();
    expect(colours.width).not.toBe("0px");
    // The gradient starts at #7c3aed: the ring must not melt into it, nor into the page around it.
    expect(contrast(colours.ring, "rgb(124, 58, 237)")).toBeGreaterThanOrEqual(3);
    expect(contrast(colours.ring, colours.page)).toBeGreaterThanOrEqual(3);
  });
}

// One walk in the dark theme, with axe in both themes at each view.
test(`the shell: one account menu, named icons when collapsed, and Free play reaches the main chat`, async ({
  page,
}) => {
  const theme = "dark";
  const watch = watchConsole(page);
  await openStories(page, theme);
  const bar = page.getByRole("banner");
  // The user and Logout appear once, in the avatar menu, not also as a name and a button in the bar.
  await expect(bar.getByRole("button", { name: "Logout" })).toHaveCount(0);
  await expect(bar.getByText(writer.username, { exact: true })).toHaveCount(0);
  await bar.getByRole("button", { name: "Account menu" }).click();
  const menu = page.getByRole("menu");
  await expect(menu.getByText(writer.username, { exact: true })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Logout" })).toBeVisible();
  await page.keyboard.press("Escape");

  // The collapsed sidebar's icons say their names on hover and on keyboard focus.
  const nav = page.getByRole("navigation", { name: "Main" });
  const studio = nav.getByRole("button", { name: "Studio", exact: true });
  await studio.hover();
  await expect(page.getByRole("tooltip", { name: "Studio", exact: true })).toBeVisible();
  await page.mouse.move(900, 400);
  await expect(page.getByRole("tooltip", { name: "Studio", exact: true })).toBeHidden();
  const gallery = nav.getByRole("button", { name: "Gallery", exact: true });
  await studio.focus();
  await page.keyboard.press("Tab");
  await expect(gallery).toBeFocused();
  await expect(page.getByRole("tooltip", { name: "Gallery", exact: true })).toBeVisible();
  await shot(page, `sidebar-tooltip-${theme}`);
  await expectNoSeriousAxeViolationsInBothThemes(page, "shell with a sidebar tooltip");

  // The main chat has a place: Free play in the sidebar.
  await nav.getByRole("button", { name: "Free play", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Main Story" })).toBeVisible();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(nav.getByRole("button", { name: "Free play", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Open navigation" }).click();
  await expect(page.getByRole("dialog").getByRole("button", { name: "Free play" })).toBeVisible();
  await shot(page, `drawer-free-play-390-${theme}`);
  watch.assertClean();
});
