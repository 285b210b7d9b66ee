import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../test/mock-fetch";
import { createTestQueryClient, Providers, SIGNED_IN } from "../../test/render-app";
import { CREDIT_BALANCE_KEY, refreshCreditBalance, useCreditBalance } from "./credit-balance";

function Balance() {
  const { remaining, unlimited, isPlaceholder } = useCreditBalance();
  return <p data-testid="balance">{`${remaining}|${unlimited}|${isPlaceholder}`}</p>;
}

describe("useCreditBalance", () => {
  it("shows the stored user's credits until /api/credit-balance answers, then the server's", async () => {
    let answer: (response: Response) => void = () => {};
    const calls = mockFetch(({ path }) =>
      path === "/api/credit-balance" ? new Promise<Response>((resolve) => (answer = resolve)) : json({}, 404),
    );
    render(
      <Providers auth={SIGNED_IN}>
        <Balance />
      </Providers>,
    );
    expect(screen.getByTestId("balance").textContent).toBe("15|false|true");
    await waitFor(() => expect(calls.some((call) => call.path === "/api/credit-balance")).toBe(true));
    await act(async () => answer(json({ remaining: 290, unlimited: false })));
    await waitFor(() => expect(screen.getByTestId("balance").textContent).toBe("290|false|false"));
    // ...and the stored user follows, so the next load starts from it.
    await waitFor(() => expect(JSON.parse(localStorage.getItem("user") ?? "{}").credits_remaining).toBe(290));
  });

  it("reads -1 as unlimited while loading", () => {
    mockFetch(() => new Promise<Response>(() => {}));
    render(
      <Providers auth={{ ...SIGNED_IN, user: { ...SIGNED_IN.user!, credits_remaining: -1 } }}>
        <Balance />
      </Providers>,
    );
    expect(screen.getByTestId("balance").textContent).toBe("-1|true|true");
  });
});

describe("refreshCreditBalance", () => {
  it("sets the balance from quota_info at once and refetches balance, history, activity and details", async () => {
    const client = createTestQueryClient();
    const keys = [["credit-balance"], ["credit-history"], ["monthly-activity"], ["subscription-details"]];
    for (const key of keys) client.setQueryData(key, { stale: false });
    const calls = mockFetch(() => new Promise<Response>(() => {}));

    void refreshCreditBalance(client, { remaining: 12.5, unlimited: false });

    expect(client.getQueryData(CREDIT_BALANCE_KEY)).toEqual({ remaining: 12.5, unlimited: false });
    for (const key of keys) expect(client.getQueryState(key)?.isInvalidated).toBe(true);
    // Nothing observes these queries here, so none is fetched: the ones on screen refetch themselves.
    expect(calls).toEqual([]);
  });

  it("stores an unlimited answer as -1", () => {
    const client = createTestQueryClient();
    void refreshCreditBalance(client, { remaining: 999, unlimited: true });
    expect(client.getQueryData(CREDIT_BALANCE_KEY)).toEqual({ remaining: -1, unlimited: true });
  });

  it("without quota_info only refetches, and an observed balance updates the screen", async () => {
    const client = createTestQueryClient();
    let remaining = 15;
    mockFetch(({ path }) =>
      path === "/api/credit-balance"
        ? json({ remaining, unlimited: false })
        : json({ detail: "Not found" }, 404),
    );
    render(
      <QueryClientProvider client={client}>
        <Providers auth={SIGNED_IN} client={client}>
          <Balance />
        </Providers>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId("balance").textContent).toBe("15|false|false"));
    remaining = 290;
    await act(() => refreshCreditBalance(client));
    await waitFor(() => expect(screen.getByTestId("balance").textContent).toBe("290|false|false"));
  });
});
