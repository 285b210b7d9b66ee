import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch, mockHangingFetch } from "../../../test/mock-fetch";
import { AVAILABILITY_DEBOUNCE_MS, useAvailability } from "./use-availability";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const availableAnswer = () =>
  mockFetch(({ path }) => {
    const name = decodeURIComponent(path.split("/").pop() ?? "");
    return json({
      available: name !== "taken",
      message: `Username '${name}' is ${name === "taken" ? "already taken" : "available"}`,
    });
  });

function renderCheck(kind: "username" | "email", value: string, enabled = true) {
  return renderHook(
    (props: { value: string; enabled: boolean }) => useAvailability(kind, props.value, props.enabled),
    {
      initialProps: { value, enabled },
    },
  );
}

describe("live availability check", () => {
  it("asks once, 500 ms after typing stops", async () => {
    const calls = availableAnswer();
    const hook = renderCheck("username", "ada");
    hook.rerender({ value: "ada_", enabled: true });
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS - 1));
    hook.rerender({ value: "ada_l", enabled: true });
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS - 1));
    expect(calls).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(calls.map((call) => call.path)).toEqual(["/api/check-username/ada_l"]);
    expect(hook.result.current).toEqual({
      status: "done",
      text: "Username 'ada_l' is available",
      tone: "success",
    });
  });

  it("shows a taken name in red", async () => {
    availableAnswer();
    const hook = renderCheck("username", "taken");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(hook.result.current).toEqual({
      status: "done",
      text: "Username 'taken' is already taken",
      tone: "danger",
    });
  });

  it("waits for 3 characters of a username and an at-sign in an email", async () => {
    const calls = availableAnswer();
    renderCheck("username", "ad");
    renderCheck("email", "ada.example.com");
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(calls).toHaveLength(0);
  });

  it("checks nothing outside register mode", async () => {
    const calls = availableAnswer();
    const hook = renderCheck("username", "ada", false);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(calls).toHaveLength(0);
    expect(hook.result.current).toEqual({ status: "idle" });
  });

  it("encodes the email into the path and falls back to the spec's words without a message", async () => {
    const calls = mockFetch(() => json({ available: false }));
    const hook = renderCheck("email", "ada+1@example.com");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(calls[0]?.path).toBe("/api/check-email/ada%2B1%40example.com");
    expect(hook.result.current).toMatchObject({
      text: "Email 'ada+1@example.com' is already registered",
      tone: "danger",
    });
  });

  it("says 'Checking' while the answer is on its way and clears when the value changes", async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const hook = renderCheck("username", "ada");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(hook.result.current).toEqual({ status: "checking" });
    hook.rerender({ value: "ad", enabled: true });
    expect(hook.result.current).toEqual({ status: "idle" });
    // The stale answer for "ada" arrives after the value changed: it is dropped.
    await act(async () => answer(json({ available: true, message: "Username 'ada' is available" })));
    expect(hook.result.current).toEqual({ status: "idle" });
  });

  it("rejects a response without `available`", async () => {
    mockFetch(() => json({ message: "hello" }));
    const hook = renderCheck("username", "ada");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(hook.result.current).toMatchObject({
      text: "Unable to check username availability. Invalid response format from server",
      tone: "danger",
    });
  });

  it("names a network failure and a server error", async () => {
    mockFetch(() => {
      throw new TypeError("Failed to fetch");
    });
    const offline = renderCheck("username", "ada");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(offline.result.current).toMatchObject({
      text: "Network connection error. Please check your internet and try again.",
    });

    mockFetch(() => json({ detail: "Too many requests. Try again in a minute." }, 429));
    const limited = renderCheck("email", "ada@example.com");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(limited.result.current).toMatchObject({
      text: "Unable to check email availability. Too many requests. Try again in a minute.",
    });
  });

  it("gives up after 10 seconds", async () => {
    const calls = mockHangingFetch();
    const hook = renderCheck("username", "ada");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(hook.result.current).toEqual({ status: "checking" });
    expect(calls[0]?.signal).toBeDefined();
    await act(() => vi.advanceTimersByTimeAsync(9_999));
    expect(hook.result.current).toEqual({ status: "checking" });
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(hook.result.current).toMatchObject({
      text: "Request timed out. Please try again.",
      tone: "danger",
    });
  });

  it("answers a malformed name locally, without a request", async () => {
    const calls = availableAnswer();
    const hook = renderCheck("username", "ada lovelace");
    await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS));
    expect(calls).toHaveLength(0);
    expect(hook.result.current).toMatchObject({
      text: "Username may only contain letters, digits, _, . and -",
    });
  });
});
