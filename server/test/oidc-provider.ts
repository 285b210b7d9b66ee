// A real OIDC provider (oidc-provider from npm) on a local port, for the sign-in tests (decision 0146): its
// accounts are whatever a test puts in `accounts`; its own login and consent pages (the dev interactions) are
// driven over HTTP by `walkProvider`, with a cookie jar, as a browser would.
import { generateKeyPairSync } from "node:crypto";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export type ProviderAccount = {
  email?: string;
  email_verified?: boolean;
  groups?: string[];
  preferred_username?: string;
};

export type TestProvider = {
  issuer: string;
  accounts: Map<string, ProviderAccount>;
  /** Registers the app as the provider's client and starts answering (the app's port may come later). */
  serve: (client: ClientUris) => void;
  /** The provider's signing key (private JWK), for tests that make a token it would have signed. */
  signingKey: Record<string, unknown>;
  close: () => Promise<void>;
};

export const TEST_CLIENT = { id: "storyverse", secret: "a-test-client-secret-of-enough-length" };

type ClientUris = { redirectUri: string; postLogoutRedirectUri: string; backchannelLogoutUri?: string };

export async function startTestProvider(): Promise<TestProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kid: "test-key", alg: "RS256", use: "sig" };
  const { createServer } = await import("node:http");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const serve = (client: ClientUris) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: TEST_CLIENT.id,
          client_secret: TEST_CLIENT.secret,
          redirect_uris: [client.redirectUri],
          post_logout_redirect_uris: [client.postLogoutRedirectUri],
          ...(client.backchannelLogoutUri && {
            backchannel_logout_uri: client.backchannelLogoutUri,
            backchannel_logout_session_required: true,
          }),
        },
      ],
      jwks: { keys: [signingKey as never] },
      claims: {
        openid: ["sub"],
        email: ["email", "email_verified"],
        profile: ["preferred_username"],
        groups: ["groups"],
      },
      scopes: ["openid", "email", "profile", "groups", "offline_access"],
      features: { backchannelLogout: { enabled: true }, devInteractions: { enabled: true } },
      cookies: { keys: ["a-test-cookie-key"] },
      pkce: { required: () => true },
      // The app listens on 127.0.0.1 here: its back-channel calls skip the provider's private-address guard.
      fetch: (url: string, options: RequestInit & { dispatcher?: unknown }) =>
        fetch(url, { ...options, dispatcher: undefined } as RequestInit),
      findAccount: async (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: async () => ({ sub: id, ...accounts.get(id) }),
      }),
    });
    provider.on("server_error", (_ctx, error) => console.error("oidc-provider", error));
    provider.on("backchannel.error", (_ctx, error) => console.error("oidc-provider backchannel", error));
    server.on("request", provider.callback());
  };
  return {
    issuer,
    serve,
    accounts,
    signingKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookies at the provider, kept across its redirects and forms. */
export class CookieJar {
  private cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (value === "" || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
  }
}

/**
 * Follows the provider from `url` as a browser would, signing in as `accountId` on its login page and
 * pressing Continue on its consent page, until it redirects to `stopAt` (the app); returns that URL. The
 * pages it answered ("login", "consent") are added to `seen` when given.
 */
export async function walkProvider(
  url: string,
  jar: CookieJar,
  accountId: string,
  stopAt: string,
  seen?: string[],
): Promise<string> {
  let next: { url: string; body?: URLSearchParams } = { url };
  for (let hop = 0; hop < 20; hop++) {
    if (next.url.startsWith(stopAt)) return next.url;
    const response = await fetch(next.url, {
      method: next.body ? "POST" : "GET",
      redirect: "manual",
      headers: {
        cookie: jar.header(),
        ...(next.body && { "content-type": "application/x-www-form-urlencoded" }),
      },
      body: next.body,
    });
    jar.take(response);
    const location = response.headers.get("location");
    if (location) {
      next = { url: new URL(location, next.url).href };
      continue;
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`provider page without a form: ${html.slice(0, 300)}`);
    const target = new URL(action.replaceAll("&amp;", "&"), next.url).href;
    if (html.includes('name="prompt" value="login"')) {
      seen?.push("login");
      next = { url: target, body: new URLSearchParams({ prompt: "login", login: accountId, password: "x" }) };
    } else if (html.includes('name="prompt" value="consent"')) {
      seen?.push("consent");
      next = { url: target, body: new URLSearchParams({ prompt: "consent" }) };
    } else if (html.includes("<title>Submitting Callback</title>")) {
      // A page a browser submits by itself (the provider ending the session of the person signed in before).
      const inputs = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)];
      next = {
        url: target,
        body: new URLSearchParams(
          inputs.map(([, name, value]): [string, string] => [name!, value!.replaceAll("&amp;", "&")]),
        ),
      };
    } else {
      throw new Error(`provider page not understood: ${html.slice(0, 300)}`);
    }
  }
  throw new Error("too many redirects at the provider");
}

/** Confirms the provider's own sign-out page (after RP-initiated logout's redirect to it). */
export async function confirmProviderLogout(url: string, jar: CookieJar): Promise<string | null> {
  const page = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
  jar.take(page);
  const html = await page.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !xsrf) throw new Error(`provider logout page not understood: ${html.slice(0, 300)}`);
  const done = await fetch(new URL(action, url), {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ xsrf, logout: "yes" }),
  });
  jar.take(done);
  return done.headers.get("location");
}
