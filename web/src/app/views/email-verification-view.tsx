// Email verification, opened after sign-up or sign-in of an unverified account (pending), or by the
// mail's link /verify-email?token=... (verifying).
import { useCallback, useState } from "react";
import { EmailVerificationScreen } from "../../features/accounts/components/email-verification-screen";
import { clearPendingUser, readPendingUser } from "../../lib/storage";
import { useView } from "../../shared/view-provider";
import { useSignInAfterLink, useUrlToken } from "./use-account-links";

export function EmailVerificationView() {
  const { navigate } = useView();
  const [token, clearToken] = useUrlToken();
  const [pendingEmail] = useState(() => readPendingUser()?.email ?? null);
  const toSignIn = useSignInAfterLink();

  const onVerified = useCallback(() => {
    clearPendingUser();
    clearToken();
  }, [clearToken]);

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
