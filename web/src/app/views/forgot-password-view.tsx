// Password reset: the email step, or, opened by the mail's link /forgot-password?token=..., the reset step.
import { ForgotPasswordScreen } from "../../features/accounts/components/forgot-password-screen";
import { useView } from "../../shared/view-provider";
import { useSignInAfterLink, useUrlToken } from "./use-account-links";

export function ForgotPasswordView() {
  const { navigate } = useView();
  const [token, clearToken] = useUrlToken();
  const toSignIn = useSignInAfterLink();
  return (
    <ForgotPasswordScreen
      token={token}
      onTokenSpent={clearToken}
      onDone={toSignIn}
      onBackToLogin={() => navigate("auth")}
      onBackToHome={() => navigate("landing")}
    />
  );
}
