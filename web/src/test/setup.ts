// Shared set-up for the web unit tests (jsdom).
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { resetOidcCaptureForTests } from "../features/accounts/oidc-return";
import { resetPaymentReturnForTests } from "../features/credits/payment-return";
import { i18n } from "../i18n/i18n";
import { enApp } from "../i18n/locales/en-app";

// The whole English catalogue, as a signed-in page has it after start-up (the app's part loads as a chunk).
for (const [namespace, resources] of Object.entries(enApp))
  i18n.addResourceBundle("en", namespace, resources);

// Views are lazy chunks, and the first import of one is transformed on the spot: give findBy* time for it.
configure({ asyncUtilTimeout: 15_000 });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, "", "/");
  // Every test is a fresh page load: the startup capture of a payment return runs again.
  resetPaymentReturnForTests();
  resetOidcCaptureForTests();
  document.documentElement.className = "";
  // Every test starts in English, the source language (a test of another language switches on its own).
  void i18n.changeLanguage("en");
  // jsdom does not implement scrolling.
  vi.spyOn(window, "scrollTo").mockImplementation(() => {});
  // No test reaches a real network: a test that needs answers routes fetch itself (test/mock-fetch.ts).
  vi.stubGlobal(
    "fetch",
    vi.fn(() => Promise.reject(new TypeError("No network in unit tests"))),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
