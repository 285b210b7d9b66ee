// The interface language kept on the account (issue #46 item 3, decision 0155): chosen at sign-up or later, read
// back by every device, and the language of the mails the server sends. A language the app does not speak is
// refused with a reason and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, freshAddress, newCredentials } from "../../test/factories";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.cleanup();
});

const post = (url: string, payload: object) =>
  t.app.inject({ method: "POST", url, payload, remoteAddress: freshAddress() });

describe("the player's language", () => {
  it("writes the verification mail in the language the player signed up in", async () => {
    const c = { ...newCredentials(), locale: "de" };
    expect((await post("/api/register", c)).statusCode).toBe(200);
    const mail = await t.smtp.waitForMail(c.email);
    expect(mail.subject).toBe("Bestätige deine E-Mail-Adresse für Storyverse");
    expect(mail.text).toContain(`Hallo ${c.username}, willkommen bei Storyverse!`);
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain("E-Mail bestätigen");
  });

  it("keeps a language chosen later on the account, and the reset mail follows it", async () => {
    const user = await createUser(t);
    const profile = await t.app.inject({ method: "GET", url: "/api/profile", headers: bearer(user.token) });
    expect(profile.json().locale).toBeNull();

    const chosen = await t.app.inject({
      method: "PATCH",
      url: "/api/profile",
      headers: bearer(user.token),
      payload: { locale: "es" },
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().locale).toBe("es");
    // Another device asks who is signed in and learns the language with it.
    const verify = await t.app.inject({
      method: "GET",
      url: "/api/user/verify",
      headers: bearer(user.token),
    });
    expect(verify.json().locale).toBe("es");

    expect((await post("/api/forgot-password", { email: user.email })).statusCode).toBe(200);
    const mail = await t.smtp.waitForMail(user.email);
    expect(mail.subject).toBe("Restablece tu contraseña de Storyverse");
    expect(mail.text).toContain("Elige una contraseña nueva:");
  });

  it("sends English mails to a player who never chose", async () => {
    const c = newCredentials();
    await post("/api/register", c);
    expect((await t.smtp.waitForMail(c.email)).subject).toBe("Verify your Storyverse email");
  });

  it("refuses a language the app does not speak, and anything else, changing nothing", async () => {
    const user = await createUser(t);
    await t.app.inject({
      method: "PATCH",
      url: "/api/profile",
      headers: bearer(user.token),
      payload: { locale: "de" },
    });
    for (const payload of [{ locale: "fr" }, { locale: "" }, {}, { locale: "de", email: "x@example.org" }]) {
      const res = await t.app.inject({
        method: "PATCH",
        url: "/api/profile",
        headers: bearer(user.token),
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toEqual(expect.any(String));
    }
    const refused = await t.app.inject({
      method: "PATCH",
      url: "/api/profile",
      headers: bearer(user.token),
      payload: { locale: "fr" },
    });
    expect(refused.json().detail).toContain("Language must be one of: en, de, es");
    const profile = await t.app.inject({ method: "GET", url: "/api/profile", headers: bearer(user.token) });
    expect(profile.json()).toMatchObject({ locale: "de", email: user.email });
    const anonymous = await t.app.inject({ method: "PATCH", url: "/api/profile", payload: { locale: "es" } });
    expect(anonymous.statusCode).toBe(401);
  });
});
