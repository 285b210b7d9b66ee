// An account made the way a person makes one (register, then the link mailed to the SMTP sink), signed
// in through the API, and its session stored in the page the way the app stores it: the state a
// returning visitor's browser is in. For specs whose subject is not the sign-up itself.
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { linkFrom, type Mailbox } from "./mailbox";

export interface TestAccount {
  username: string;
  email: string;
  password: string;
}

export interface SignedInAccount extends TestAccount {
  token: string;
  userId: string;
  credits: number;
}

export function newAccount(prefix: string): TestAccount {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  return { username: `${prefix}_${run}`, email: `${prefix}-${run}@example.com`, password: `secret-${run}` };
}

/** Registers, verifies by the mailed link, and signs in: the account with its bearer token. */
export async function registerVerified(
  request: APIRequestContext,
  sink: Mailbox,
  baseURL: string,
  account: TestAccount,
): Promise<SignedInAccount> {
  const registered = await request.post("/api/register", { data: account });
  expect(registered.ok(), await registered.text()).toBe(true);
  const mail = await sink.waitForMail(account.email, { subject: /verify/i });
  const token = new URL(linkFrom(mail, `${baseURL}/verify-email?token=`)).searchParams.get("token") ?? "";
  const verified = await request.get(`/api/verify-email/${encodeURIComponent(token)}`);
  expect(verified.ok(), await verified.text()).toBe(true);
  const login = await request.post("/api/login", {
    data: { email: account.username, password: account.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const auth = (await login.json()) as { access_token: string; user_id: string; credits_remaining: number };
  return { ...account, token: auth.access_token, userId: auth.user_id, credits: auth.credits_remaining };
}

/**
 * Stores the session in the page (token and user, as the app keeps them), optionally with a theme. A desktop
 * shows the open canvas's picture once, not in the log (decision 0144); the specs whose subject is a picture in
 * the log (its preview, its reference toggle, its retry) get it in both places unless they ask for `once`.
 */
export async function storeSession(
  page: Page,
  account: SignedInAccount,
  theme?: "light" | "dark",
  pictures: "once" | "both" = "both",
): Promise<void> {
  // Local storage needs a page of the app's origin: robots.txt is one, without loading the whole app first.
  if (!page.url().startsWith("http")) await page.goto("/robots.txt");
  await page.evaluate(
    ({ a, t, p }) => {
      localStorage.setItem("token", a.token);
      localStorage.setItem(
        "user",
        JSON.stringify({ id: a.userId, email: a.email, username: a.username, credits_remaining: a.credits }),
      );
      if (t) localStorage.setItem("theme", t);
      localStorage.setItem("scenePictures", p);
    },
    { a: account, t: theme, p: pictures },
  );
}

/** Headers for calling the API as the account from a test. */
export function bearer(account: Pick<SignedInAccount, "token">): { Authorization: string } {
  return { Authorization: `Bearer ${account.token}` };
}
