// Test helpers for adapter failures: catch the ProviderError, and the standard vendor failures every adapter
// must map to the same user-facing message and retry flag.
import { expect } from "vitest";
import { userMessages } from "../../src/providers/http";
import { ProviderError } from "../../src/providers/types";
import type { Failure } from "./fake-server";

export async function catchProviderError(
  work: Promise<unknown> | (() => Promise<unknown>),
): Promise<ProviderError> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected a ProviderError, but the call succeeded");
}

/** Neither the message nor the log detail may carry a secret; the message not even the vendor's address. */
export function expectNoSecrets(error: ProviderError, secrets: { apiKey: string; baseUrl: string }): void {
  expect(error.message).not.toContain(secrets.apiKey);
  expect(error.message).not.toContain(secrets.baseUrl);
  expect(error.message).not.toContain(new URL(secrets.baseUrl).host);
  expect(error.message).not.toMatch(/https?:\/\//);
  expect(error.internal).not.toContain(secrets.apiKey);
}

export type FailureCase = { name: string; failure: Failure; message: string | RegExp; retryable: boolean };

export const standardFailures: FailureCase[] = [
  {
    name: "400",
    failure: { status: 400 },
    message: /^The AI provider rejected the request/,
    retryable: false,
  },
  { name: "401", failure: { status: 401 }, message: userMessages.misconfigured, retryable: false },
  { name: "403", failure: { status: 403 }, message: userMessages.misconfigured, retryable: false },
  { name: "404", failure: { status: 404 }, message: userMessages.misconfigured, retryable: false },
  { name: "429", failure: { status: 429 }, message: userMessages.busy, retryable: true },
  { name: "500", failure: { status: 500 }, message: userMessages.failed, retryable: true },
  { name: "503", failure: { status: 503 }, message: userMessages.failed, retryable: true },
  { name: "invalid JSON", failure: "malformed-json", message: userMessages.malformed, retryable: true },
  { name: "an HTML page", failure: "html", message: userMessages.malformed, retryable: true },
  {
    name: "JSON of the wrong shape",
    failure: "wrong-shape",
    message: userMessages.malformed,
    retryable: true,
  },
  { name: "no answer in time", failure: "hang", message: userMessages.timeout, retryable: true },
];

export function expectFailure(error: ProviderError, expected: FailureCase): void {
  if (typeof expected.message === "string") expect(error.message).toBe(expected.message);
  else expect(error.message).toMatch(expected.message);
  expect(error.retryable).toBe(expected.retryable);
}
