// Sign-in by OIDC through the browser (issue 44 item 2, decisions 0146 and 0147), against a real OIDC
// provider (oidc-provider from npm) started by the spec, with the app's server of its own configured for it:
// "Sign in with Guild ID" leads through the provider's own login and consent pages into the app (the token
// never left in the address bar), and logout ends the provider's session too; an existing password account is
// linked only with its password (a wrong one refused); the group claim makes an administrator (the Admin
// console link appears); a disabled account is refused in clear words; an account the provider opened deletes
// itself by signing in there again (decision 0158); with PASSWORD_LOGIN=off the provider is the only way in.
// Light, dark and a 390 px phone; axe.
import {
  type APIRequestContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from "@playwright/test";
import {
  type ProviderAccount,
  startTestProvider,
  TEST_CLIENT,
  type TestProvider,
} from "./support/oidc-provider";
import { type OwnServer, startOwnServer } from "./support/own-server";
import {
  expectNoSeriousAxeViolationsInBothThemes,
  failedRequest,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { newAccount } from "./support/session";

const lane = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const port = Number(process.env.E2E_OIDC_PORT ?? 3194) + 10 * lane;
const ADMIN_GROUP = "storyverse-admins";

let provider: TestProvider;
let server: OwnServer | null = null;
let api: APIRequestContext;
let adminToken = "";

test.describe.configure({ mode: "serial" });

function oidcEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    REQUIRE_EMAIL_VERIFICATION: "false",
    OIDC_ISSUER_URL: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_SCOPES: "openid email profile groups",
    OIDC_PROVIDER_NAME: "Guild ID",
    OIDC_ADMIN_GROUPS: ADMIN_GROUP,
    ...extra,
  };
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  provider = await startTestProvider();
  provider.serve(`http://127.0.0.1:${port}`);
  server = await startOwnServer(port, oidcEnv());
  api = await playwrightRequest.newContext({ baseURL: server.baseURL });
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await provider?.close();
});

/**
 * The console, less what the provider's own pages do (their stylesheet asks for a web font, offline here, and
 * the browser for a favicon it does not have); the app itself must answer every request it makes.
 */
function watchApp(page: Page) {
  const watch = watchConsole(page);
  watch.allow(/Failed to load resource: net::ERR_/);
  watch.allow(failedRequest(404));
  const appMisses: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404 && response.url().startsWith(`${server?.baseURL}/`)) {
      appMisses.push(response.url());
    }
  });
  return {
    allow: watch.allow,
    assertClean: () => {
      watch.assertClean();
      expect(appMisses, "the app's requests answered 404").toEqual([]);
    },
  };
}

/** A person at the provider: an id to type on its login page, and what it says about them. */
function providerPerson(prefix: string, claims: Partial<ProviderAccount> = {}) {
  const { email } = newAccount(prefix);
  const id = email.split("@")[0]!;
  provider.accounts.set(id, { email: `${id}@guild.test`, email_verified: true, ...claims });
  return { id, email: provider.accounts.get(id)!.email };
}

/**
 * Signs this browser out of the app only (the provider still knows it): the app is left first, so no request it
 * starts in the background goes out without its token and meets a 401.
 */
async function forgetTheApp(page: Page) {
  await page.goto(`${server?.baseURL}/robots.txt`);
  await page.evaluate(() => localStorage.clear());
}

async function openSignIn(page: Page, theme: "light" | "dark" = "light") {
  await page.goto(`${server?.baseURL}/robots.txt`);
  await page.evaluate((t) => localStorage.setItem("theme", t), theme);
  await page.goto(`${server?.baseURL}/auth`);
  await expect(page.getByRole("heading", { name: "Welcome to Storyverse" })).toBeVisible();
}

/**
 * From the app's button through the provider's own login (and, the first time, consent) page; a person the
 * provider still knows in this browser goes straight back (`remembered`).
 */
async function signInAtProvider(page: Page, id: string, { remembered = false } = {}) {
  await page.getByRole("link", { name: "Sign in with Guild ID" }).click();
  if (remembered) return;
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await page.locator('input[name="login"]').fill(id);
  await page.locator('input[name="password"]').fill("any password the dev login takes");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const consent = page.getByRole("button", { name: "Continue" });
  await expect(
    consent.or(page.getByRole("heading", { name: /Your Stories|Link your|Welcome/ })),
  ).toBeVisible();
  if (await consent.isVisible()) await consent.click();
}

const accountMenu = (page: Page) => page.getByRole("button", { name: "Account menu" });
const stories = (page: Page) => page.getByRole("heading", { name: "Your Stories", exact: true });

test("signs in through the provider's own pages, and logs out of the provider too", async ({ page }) => {
  const watch = watchApp(page);
  const mira = providerPerson("mira", { preferred_username: "mira" });
  await openSignIn(page);
  await expect(page.getByLabel("Email or username")).toBeVisible();
  await shoot(page, "oidc-auth-light");
  await expectNoSeriousAxeViolationsInBothThemes(page, "the sign-in with a provider button");

  await signInAtProvider(page, mira.id);
  await expect(stories(page)).toBeVisible();
  // The session arrived in the fragment and left the address bar at once.
  await expect(page).toHaveURL(`${server?.baseURL}/stories`);
  expect(await page.evaluate(() => window.location.hash)).toBe("");
  expect(await page.evaluate(() => localStorage.getItem("signedInWith"))).toBe("oidc");
  await accountMenu(page).click();
  await expect(page.getByRole("menu").getByText(mira.email)).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Admin console" })).toHaveCount(0);

  // Logout ends the app's session and the provider's: its own sign-out page, then back to the app.
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page).toHaveURL(`${server?.baseURL}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Start Your Universe Now" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  // The provider forgot the person too: signing in again asks for the login.
  await page.goto(`${server?.baseURL}/auth`);
  await page.getByRole("link", { name: "Sign in with Guild ID" }).click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
  watch.assertClean();
});

test("links an existing account only with its password", async ({ page }) => {
  test.setTimeout(150_000);
  const watch = watchApp(page);
  const owner = newAccount("owner");
  const registered = await api.post("/api/register", { data: owner });
  expect(registered.ok(), await registered.text()).toBe(true);
  const id = `linker-${owner.username}`;
  provider.accounts.set(id, { email: owner.email, email_verified: true });

  await openSignIn(page, "dark");
  await signInAtProvider(page, id);
  await expect(page.getByRole("heading", { name: "Link your Guild ID sign-in" })).toBeVisible();
  await expect(page.getByText(owner.email)).toBeVisible();
  expect(await page.evaluate(() => window.location.href)).toBe(`${server?.baseURL}/auth`);
  await shoot(page, "oidc-link-dark");
  await expectNoSeriousAxeViolationsInBothThemes(page, "the link screen");

  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Link and sign in" }).click();
  await expect(page.getByText("That is not this account's password. Please try again.")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, "oidc-link-phone-error", { fullPage: true });
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByRole("button", { name: "Link and sign in" }).click();
  await expect(stories(page)).toBeVisible();
  await accountMenu(page).click();
  await expect(page.getByRole("menu").getByText(owner.username)).toBeVisible();
  await page.keyboard.press("Escape");

  // Linked: the next sign-in by the provider opens the same account without asking (the provider still
  // knows this browser, so it does not ask either).
  await forgetTheApp(page);
  await openSignIn(page);
  await signInAtProvider(page, id, { remembered: true });
  await expect(stories(page)).toBeVisible();
  await accountMenu(page).click();
  await expect(page.getByRole("menu").getByText(owner.username)).toBeVisible();
  watch.allow(failedRequest(401));
  watch.assertClean();
});

test("the administrators' group claim makes an administrator: the Admin console link appears", async ({
  page,
}) => {
  const watch = watchApp(page);
  const boss = providerPerson("boss", { groups: ["players", ADMIN_GROUP] });
  await openSignIn(page);
  await signInAtProvider(page, boss.id);
  await expect(stories(page)).toBeVisible();
  await accountMenu(page).click();
  await page.getByRole("menuitem", { name: "Admin console" }).click();
  await expect(page.getByRole("heading", { name: "Admin", level: 1 })).toBeVisible();
  adminToken = (await page.evaluate(() => localStorage.getItem("token"))) ?? "";
  watch.assertClean();
});

test("a disabled account is refused with a clear message", async ({ page }) => {
  test.setTimeout(150_000);
  expect(adminToken, "the administrator of the test before").not.toBe("");
  const watch = watchApp(page);
  const gone = providerPerson("gone");
  await openSignIn(page);
  await signInAtProvider(page, gone.id);
  await expect(stories(page)).toBeVisible();
  await forgetTheApp(page);

  const headers = { Authorization: `Bearer ${adminToken}` };
  const found = await api.get(`/api/admin/users?q=${encodeURIComponent(gone.email)}`, { headers });
  expect(found.ok(), await found.text()).toBe(true);
  const [user] = ((await found.json()) as { users: { id: string }[] }).users;
  const disabled = await api.put(`/api/admin/users/${user!.id}`, {
    headers,
    data: { disabled: true, reason: "Left the guild" },
  });
  expect(disabled.ok(), await disabled.text()).toBe(true);

  await openSignIn(page);
  await signInAtProvider(page, gone.id, { remembered: true });
  const refusal = page.getByText("This account has been disabled. Please contact the site's administrator.");
  await expect(refusal).toBeVisible();
  await expect(page).toHaveURL(`${server?.baseURL}/auth`);
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  await shoot(page, "oidc-refused-light");
  await expectNoSeriousAxeViolationsInBothThemes(page, "a refused sign-in");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(refusal).toBeVisible();
  await shoot(page, "oidc-refused-phone", { fullPage: true });
  watch.assertClean();
});

test("deletes an account the provider opened, confirmed by signing in there again", async ({ page }) => {
  test.setTimeout(150_000);
  const watch = watchApp(page);
  const quitter = providerPerson("quitter");
  await openSignIn(page);
  await signInAtProvider(page, quitter.id);
  await expect(stories(page)).toBeVisible();
  const token = (await page.evaluate(() => localStorage.getItem("token"))) ?? "";

  await page.goto(`${server?.baseURL}/subscription`);
  const card = page.getByRole("region", { name: "Your data" });
  await card.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  const confirm = dialog.getByRole("button", { name: "Confirm with Guild ID" });
  await expect(confirm).toBeVisible();
  await expect(dialog.getByText("or with your password")).toBeVisible();
  await shoot(page, "oidc-delete-dialog");
  await expectNoSeriousAxeViolationsInBothThemes(page, "the delete dialog with the provider");
  await confirm.click();

  // The provider still knows this browser, and asks for the login all the same (prompt=login, max_age=0).
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await page.locator('input[name="login"]').fill(quitter.id);
  await page.locator('input[name="password"]').fill("any password the dev login takes");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const deleted = page.getByText("Your account and everything in it have been deleted.");
  // The provider's consent page, if it asks again (the app's sign-in has a "Continue" button of its own).
  const consent = page.getByRole("button", { name: "Continue" });
  await expect(consent.or(deleted).first()).toBeVisible();
  if (page.url().startsWith(provider.issuer) && (await consent.isVisible())) await consent.click();
  await expect(deleted).toBeVisible();
  await expect(page).toHaveURL(`${server?.baseURL}/auth`);
  expect(await page.evaluate(() => window.location.hash)).toBe("");
  expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  const profile = await api.get("/api/profile", { headers: { Authorization: `Bearer ${token}` } });
  expect(profile.status()).toBe(401);
  watch.assertClean();
});

test("with passwords off, the provider is the only way in", async ({ page }) => {
  test.setTimeout(240_000);
  // The same install restarted with PASSWORD_LOGIN=off (a data folder of its own: nothing here needs the
  // accounts of the tests before).
  await server?.stop();
  server = await startOwnServer(port, oidcEnv({ PASSWORD_LOGIN: "off" }));
  const watch = watchApp(page);
  const solo = providerPerson("solo");
  await openSignIn(page, "dark");
  await expect(page.getByRole("link", { name: "Sign in with Guild ID" })).toBeVisible();
  await expect(page.getByLabel("Email or username")).toHaveCount(0);
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create one" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Forgot password?" })).toHaveCount(0);
  await shoot(page, "oidc-provider-only-dark");
  await expectNoSeriousAxeViolationsInBothThemes(page, "sign-in by the provider alone");
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, "oidc-provider-only-phone");
  await signInAtProvider(page, solo.id);
  await expect(stories(page)).toBeVisible();
  watch.assertClean();
});
