// A real OIDC provider (oidc-provider from npm, as the integration tier's server/test/oidc-provider.ts) for the
// browser tests of sign-in by OIDC (decisions 0146, 0147): started on a local port in the spec's process, its
// accounts whatever the spec puts in `accounts`, its own login, consent and sign-out pages (the dev
// interactions) walked by the browser. The app is registered as its client once the app's address is known.
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  groups?: string[];
  preferred_username?: string;
}

export interface TestProvider {
  issuer: string;
  accounts: Map<string, ProviderAccount>;
  /** Registers the app (its origin) as the provider's client and starts answering. */
  serve: (appOrigin: string) => void;
  close: () => Promise<void>;
}

export const TEST_CLIENT = { id: "storyverse-e2e", secret: "an-e2e-client-secret-of-enough-length" };

export async function startTestProvider(): Promise<TestProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kid: "e2e-key", alg: "RS256", use: "sig" };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const serve = (appOrigin: string) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: TEST_CLIENT.id,
          client_secret: TEST_CLIENT.secret,
          redirect_uris: [`${appOrigin}/api/auth/oidc/callback`],
          post_logout_redirect_uris: [`${appOrigin}/`],
        },
      ],
      jwks: { keys: [signingKey] },
      claims: {
        openid: ["sub"],
        email: ["email", "email_verified"],
        profile: ["preferred_username"],
        groups: ["groups"],
      },
      scopes: ["openid", "email", "profile", "groups"],
      features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
      cookies: { keys: ["an-e2e-cookie-key"] },
      pkce: { required: () => true },
      findAccount: async (_ctx: unknown, id: string) => ({
        accountId: id,
        claims: async () => ({ sub: id, ...accounts.get(id) }),
      }),
    });
    provider.on("server_error", (_ctx, error) => console.error("oidc-provider", error));
    server.on("request", provider.callback());
  };
  return {
    issuer,
    accounts,
    serve,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
