import { afterEach, describe, expect, it, vi } from "vitest";
import {
  captureOidcReturn,
  parseOidcFragment,
  pendingOidcReturn,
  resetOidcCaptureForTests,
} from "./oidc-return";
import { refusalMessage } from "./oidc-rules";

afterEach(() => resetOidcCaptureForTests());

describe("the OIDC landing's fragment", () => {
  it("reads a session, a link request or a refusal", () => {
    expect(parseOidcFragment("#access_token=abc.def")).toEqual({ kind: "session", accessToken: "abc.def" });
    expect(parseOidcFragment("#link=tok123&email=ada%40example.com")).toEqual({
      kind: "link",
      token: "tok123",
      email: "ada@example.com",
    });
    expect(parseOidcFragment("#error=Nope&code=forbidden&reason=domain_not_allowed")).toEqual({
      kind: "refused",
      reason: "domain_not_allowed",
      code: "forbidden",
    });
    expect(parseOidcFragment("#error=Disabled&code=account_disabled")).toEqual({
      kind: "refused",
      reason: null,
      code: "account_disabled",
    });
  });

  it("takes an empty, broken or half link fragment as a refusal without a reason", () => {
    for (const hash of ["", "#", "#access_token=", "#link=tok", "#email=a%40b.c", "#%%%"]) {
      expect(parseOidcFragment(hash)).toEqual({ kind: "refused", reason: null, code: null });
    }
  });
});

describe("the startup capture", () => {
  const history = () => ({ state: { key: "k" }, replaceState: vi.fn() });

  it("keeps the landing's outcome and puts the sign-in's address, without the fragment, in the address bar", () => {
    const h = history();
    const outcome = captureOidcReturn({ pathname: "/auth/oidc", hash: "#access_token=secret" }, h);
    expect(outcome).toEqual({ kind: "session", accessToken: "secret" });
    expect(h.replaceState).toHaveBeenCalledWith({ key: "k" }, "", "/auth");
    expect(pendingOidcReturn()).toEqual(outcome);
    // Asked again (a second render), the same answer and no second rewrite.
    expect(captureOidcReturn({ pathname: "/auth/oidc", hash: "" }, h)).toEqual(outcome);
    expect(h.replaceState).toHaveBeenCalledTimes(1);
  });

  it("leaves every other address alone", () => {
    const h = history();
    expect(captureOidcReturn({ pathname: "/auth", hash: "#access_token=secret" }, h)).toBeNull();
    expect(h.replaceState).not.toHaveBeenCalled();
    expect(pendingOidcReturn()).toBeNull();
  });

  it("back from a deletion confirmed at the provider (decision 0158): deleted to the sign-in, refused to the account page", () => {
    const deleted = history();
    expect(captureOidcReturn({ pathname: "/auth/oidc", hash: "#deleted=1" }, deleted)).toEqual({
      kind: "deleted",
    });
    expect(deleted.replaceState).toHaveBeenCalledWith({ key: "k" }, "", "/auth");
    resetOidcCaptureForTests();
    const refused = history();
    expect(
      captureOidcReturn(
        { pathname: "/auth/oidc", hash: "#delete_refused=stale_sign_in&error=Any+words" },
        refused,
      ),
    ).toEqual({ kind: "delete_refused", reason: "stale_sign_in" });
    expect(refused.replaceState).toHaveBeenCalledWith({ key: "k" }, "", "/subscription");
    // Anything but deleted=1 deletes nothing in this browser's eyes.
    expect(parseOidcFragment("#deleted=yes").kind).toBe("refused");
  });

  it("tolerates a trailing slash", () => {
    const h = history();
    expect(captureOidcReturn({ pathname: "/auth/oidc/", hash: "#link=t&email=a%40b.c" }, h)?.kind).toBe(
      "link",
    );
    expect(h.replaceState).toHaveBeenCalledOnce();
  });
});

describe("a refusal's words", () => {
  it("names the provider and says what to do, for each reason", () => {
    expect(refusalMessage("domain_not_allowed", "forbidden", "Guild ID")).toBe(
      "Signing in with Guild ID is open to some email domains only, and your account's is not one of them.",
    );
    expect(refusalMessage("email_unverified", "forbidden", "Guild ID")).toContain(
      "Guild ID has not confirmed your email address",
    );
    expect(refusalMessage("registration_off", "forbidden", "Guild ID")).toContain(
      "new accounts cannot be opened by signing in with Guild ID",
    );
    expect(refusalMessage("state_mismatch", "invalid_request", "Guild ID")).toContain(
      "was not started in this browser",
    );
    expect(refusalMessage("untrusted_answer", "not_authenticated", "Guild ID")).toContain(
      "Guild ID's answer could not be verified",
    );
    expect(refusalMessage("provider_error", "invalid_request", "Guild ID")).toBe(
      "Guild ID did not sign you in. Please try again.",
    );
    expect(refusalMessage(null, "account_disabled", "Guild ID")).toBe(
      "This account has been disabled. Please contact the site's administrator.",
    );
  });

  it("never repeats words from the link: an unknown reason reads the app's own fallback", () => {
    expect(refusalMessage("Call 555-0100 to restore your account", null, "Guild ID")).toBe(
      "Signing in with Guild ID did not work. Please try again.",
    );
    expect(refusalMessage("toString", null, "Guild ID")).toBe(
      "Signing in with Guild ID did not work. Please try again.",
    );
  });
});
