// Placeholder for the password reset flow (email, sent, reset, success) that comes with accounts.
import { AccountScreen } from "../../features/accounts/components/account-screen";
import { useView } from "../view-provider";

export function ForgotPasswordView() {
  const { navigate } = useView();
  return (
    <AccountScreen
      title="Reset Your Password"
      description="Password reset opens with accounts in the next release. Reset links will stay valid for 1 hour."
      onBackToHome={() => navigate("landing")}
    />
  );
}
