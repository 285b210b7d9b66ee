// Handles the payment return the startup capture kept (payment-return.ts), once the user is signed in:
// opens the Credits page, and for a paid return verifies the session, shows what it added and refreshes
// every balance on screen. Used once, by the signed-in shell.
import { PAYMENT_CANCELLED_MESSAGE, type VerifySessionResponse } from "@storyverse/contract/billing";
import { UNLIMITED_CREDITS } from "@storyverse/contract/credits";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { ApiError } from "../../../lib/api-errors";
import { costLabel } from "../../../lib/credits";
import { useBanner } from "../../../shared/banner-provider";
import { refreshCreditBalance } from "../../../shared/credits/credit-balance";
import { CREDITS_VIEW } from "../../../shared/credits/quota-prompt-provider";
import { takeCreditsReturn } from "../../../shared/credits/story-return";
import { useView } from "../../../shared/view-provider";
import { verifyCheckoutSession } from "../api/verify-checkout-session";
import { planName } from "../format";
import { type PaymentReturn, restorePendingPaymentReturn, takePendingPaymentReturn } from "../payment-return";

/** The purchase may well have gone through, but this page could not confirm it. */
export const paymentRefreshMessage = (): string => i18n.t("credits:paymentReturn.refresh");
export const invalidSessionMessage = (): string => i18n.t("credits:paymentReturn.invalidSession");

export function paymentSuccessMessage(
  result: Pick<VerifySessionResponse, "plan_name" | "credits_added">,
): string {
  return i18n.t("credits:paymentReturn.success", {
    plan: planName(result.plan_name),
    amount: costLabel(result.credits_added),
  });
}

/** What to say when verification failed. null: the session ended (401); it is retried after the next login. */
export function verifyFailureMessage(error: unknown): string | null {
  if (error instanceof ApiError) {
    if (error.status === 401) return null;
    // The server looked at the session and said no (not paid, cancelled, not yours): its words are exact.
    if (error.fromServer && error.status >= 400 && error.status < 500)
      return translateServerMessage(error.detail);
  }
  // A network failure, a time-out or a server error: the payment may have been credited all the same.
  return paymentRefreshMessage();
}

export interface PaymentReturnHandlers {
  navigate: (view: string, options?: { storyId?: string }) => void;
  showError: (text: string) => void;
  showSuccess: (text: string) => void;
  refresh: (balance?: { remaining: number; unlimited: boolean }) => Promise<void>;
  verify?: typeof verifyCheckoutSession;
}

/** Acts on one payment return (exported for tests; the hook below is what the app uses). */
export async function handlePaymentReturn(
  ret: PaymentReturn,
  handlers: PaymentReturnHandlers,
): Promise<void> {
  const { navigate, showError, verify = verifyCheckoutSession } = handlers;
  navigate(CREDITS_VIEW);
  switch (ret.kind) {
    case "open":
      return;
    case "cancelled":
      showError(translateServerMessage(PAYMENT_CANCELLED_MESSAGE));
      return;
    case "invalid-session":
      showError(invalidSessionMessage());
      return;
    case "success":
      return verifyPaidReturn(ret.sessionId, ret.type, handlers, verify);
  }
}

async function verifyPaidReturn(
  sessionId: string,
  type: string,
  { navigate, showError, showSuccess, refresh }: PaymentReturnHandlers,
  verify: typeof verifyCheckoutSession,
): Promise<void> {
  let result: VerifySessionResponse;
  try {
    result = await verify(sessionId);
  } catch (error) {
    const message = verifyFailureMessage(error);
    if (message === null) {
      restorePendingPaymentReturn(sessionId, type);
      return;
    }
    showError(message);
    await refresh();
    return;
  }
  showSuccess(paymentSuccessMessage(result));
  await refresh({ remaining: result.remaining, unlimited: result.remaining === UNLIMITED_CREDITS });
  // Bought from a story: back to it, where the composer still holds the draft (story-return.ts).
  const storyId = takeCreditsReturn();
  if (storyId) navigate("story-interface", { storyId });
}

export function usePaymentReturn(): void {
  const { navigate } = useView();
  const { showError, showSuccess } = useBanner();
  const queryClient = useQueryClient();

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per signed-in shell; the return is taken once
  useEffect(() => {
    const ret = takePendingPaymentReturn();
    if (!ret) return;
    void handlePaymentReturn(ret, {
      navigate,
      showError,
      showSuccess,
      refresh: (balance) => refreshCreditBalance(queryClient, balance),
    });
  }, []);
}
