// The OIDC settings (decision 0146): the redirect URL from APP_URL, lists lower-cased, and the refusals that
// name their variable (no client id, no openid scope, http in production, passwords off with no provider).
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";

const base = { APP_URL: "https://stories.example.com", DATA_DIR: "/tmp/storyverse-oidc-config" };

describe("OIDC configuration", () => {
  it("is off by default, with password sign-in on", () => {
    const config = loadConfig(base);
    expect(config.oidc).toBeUndefined();
    expect(config.passwordLogin).toBe(true);
  });

  it("derives the redirect URL from APP_URL and lower-cases the domain and group lists", () => {
    const config = loadConfig({
      ...base,
      OIDC_ISSUER_URL: "https://id.example.com/realms/x",
      OIDC_CLIENT_ID: "storyverse",
      OIDC_ALLOWED_DOMAINS: " Example.COM, ,guild.test",
      OIDC_ADMIN_GROUPS: "Admins",
      PASSWORD_LOGIN: "off",
    });
    expect(config.oidc).toMatchObject({
      redirectUrl: "https://stories.example.com/api/auth/oidc/callback",
      scopes: "openid email profile",
      allowedDomains: ["example.com", "guild.test"],
      adminGroups: ["admins"],
      autoRegister: true,
      providerName: "SSO",
      groupsClaim: "groups",
    });
    expect(config.passwordLogin).toBe(false);
  });

  it("refuses settings that could not work, naming the variable", () => {
    const issuer = { ...base, OIDC_ISSUER_URL: "https://id.example.com" };
    expect(() => loadConfig({ ...base, PASSWORD_LOGIN: "off" })).toThrow(
      "Invalid environment variable PASSWORD_LOGIN: off needs OIDC_ISSUER_URL, or nobody could sign in",
    );
    expect(() => loadConfig(issuer)).toThrow(
      "Invalid environment variable OIDC_CLIENT_ID: required when OIDC_ISSUER_URL is set",
    );
    expect(() => loadConfig({ ...issuer, OIDC_CLIENT_ID: "x", OIDC_SCOPES: "email profile" })).toThrow(
      'Invalid environment variable OIDC_SCOPES: must include openid (got "email profile")',
    );
    expect(() => loadConfig({ ...base, PASSWORD_LOGIN: "maybe" })).toThrow(
      "Invalid environment variable PASSWORD_LOGIN: must be on or off",
    );
  });

  it("refuses an http issuer in production", () => {
    const production = {
      ...base,
      APP_ENV: "production",
      SESSION_SECRET: "x".repeat(32),
      ALLOW_OFFLINE_AI: "1",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      REQUIRE_EMAIL_VERIFICATION: "false",
      FFMPEG_PATH: "/usr/bin/ffmpeg",
      OIDC_CLIENT_ID: "storyverse",
    };
    expect(loadConfig({ ...production, OIDC_ISSUER_URL: "https://id.example.com" }).oidc).toBeDefined();
    expect(() => loadConfig({ ...production, OIDC_ISSUER_URL: "http://id.example.com" })).toThrow(
      "Invalid environment variable OIDC_ISSUER_URL: must be https when APP_ENV=production",
    );
  });
});
