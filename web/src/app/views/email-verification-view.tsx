// Placeholder for email verification: opened by /verify-email?token=... from the verification email.
import { AccountScreen } from "../../features/accounts/components/account-screen";
import { useView } from "../view-provider";

export function EmailVerificationView() {
  const { navigate } = useView();
  const hasToken = new URLSearchParams(window.location.search).has("token");
  return (
    <AccountScreen
      title="Check Your Email"
      description={
        hasToken
          ? "We received your verification link. Email verification opens with accounts in the next release."
          : "We sent a verification link to your inbox. Open it to finish setting up your account."
      }
      onBackToHome={() => navigate("landing")}
    />
  );
}
