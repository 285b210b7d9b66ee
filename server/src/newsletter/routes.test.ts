import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { countSignups } from "./repo";

describe("POST /api/newsletter", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const post = (payload: unknown) =>
    t.app.inject({ method: "POST", url: "/api/newsletter", payload: payload as object });

  it("stores a new address and thanks the visitor", async () => {
    const res = await post({ email: "  Reader@Example.com " });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      subscribed: true,
      message: "You're on the list! We'll write when new worlds open.",
    });
    expect(await countSignups(t.database.db)).toBe(1);
  });

  it("treats the same address in another case as already subscribed", async () => {
    const res = await post({ email: "reader@example.COM" });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe("You're already on the list. We'll be in touch.");
    expect(await countSignups(t.database.db)).toBe(1);
  });

  it.each([
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{}, "email"],
    [{ email: 42 }, "email"],
    [{ email: `${"a".repeat(250)}@x.io` }, "email"],
  ])("rejects %j with 400 and changes nothing", async (payload, fragment) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(fragment);
    expect(await countSignups(t.database.db)).toBe(1);
  });

  it("rejects malformed JSON with 400 and a detail", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      headers: { "content-type": "application/json" },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/JSON/);
  });
});
