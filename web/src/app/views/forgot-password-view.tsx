// Password reset: the email step, or, opened by the mail's link /forgot-password?token=..., the reset step.
import { ForgotPasswordScreen } from "../../features/accounts/components/forgot-password-screen";
import { useView } from "../view-provider";
import { useGoToRoot, useUrlToken } from "./use-account-links";

export function ForgotPasswordView() {
  const { navigate } = useView();
  const [token, clearToken] = useUrlToken();
  const goToRoot = useGoToRoot();
  return (
    <ForgotPasswordScreen
      token={token}
      onTokenSpent={clearToken}
      onDone={goToRoot}
      onBackToLogin={() => navigate("auth")}
      onBackToHome={() => navigate("landing")}
    />
  );
}
