// Email verification, opened after sign-up or sign-in of an unverified account (pending), or by the
// mail's link /verify-email?token=... (verifying).
import { type AuthResponse, SIGNED_IN_BY_LINK_MESSAGE } from "@storyverse/contract/accounts";
import { useCallback, useState } from "react";
import { EmailVerificationScreen } from "../../features/accounts/components/email-verification-screen";
import { translateServerMessage } from "../../i18n/server-messages";
import { clearPendingUser, readPendingUser } from "../../lib/storage";
import { useAuth } from "../../shared/auth";
import { useBanner } from "../../shared/banner-provider";
import { useView } from "../../shared/view-provider";
import { useSignInAfterLink, useUrlToken } from "./use-account-links";

export function EmailVerificationView() {
  const { navigate } = useView();
  const [token, clearToken] = useUrlToken();
  const [pendingEmail] = useState(() => readPendingUser()?.email ?? null);
  const toSignIn = useSignInAfterLink();
  const { signIn } = useAuth();
  const { showSuccess } = useBanner();

  // Opened in the browser that signed up, the link brings a session (decision 0153): signed in at once, the
  // view provider opens the stories, and the banner says why no password was asked.
  const onVerified = useCallback(
    (session?: AuthResponse) => {
      clearPendingUser();
      clearToken();
      if (session?.access_token) {
        signIn(session.access_token, {
          id: session.user_id,
          email: session.email,
          username: session.username,
          credits_remaining: session.credits_remaining,
        });
        showSuccess(translateServerMessage(SIGNED_IN_BY_LINK_MESSAGE));
      }
    },
    [clearToken, signIn, showSuccess],
  );

  return (
    <EmailVerificationScreen
      token={token}
      pendingEmail={pendingEmail}
      onVerified={onVerified}
      onDone={toSignIn}
      onBackToLogin={() => navigate("auth")}
      onBackToHome={() => navigate("landing")}
    />
  );
}
