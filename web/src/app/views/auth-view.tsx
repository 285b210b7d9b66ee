// The auth screen, wired to the app: a session signs in (the view provider then opens stories); an
// account that must verify its email goes to the verification screen with the notice the form
// gives (a success or an error banner).

import { useState } from "react";
import { AuthScreen } from "../../features/accounts/components/auth-screen";
import { takeRegisterRequest, takeSignInEmail, writePendingUser } from "../../lib/storage";
import { useAuth } from "../../shared/auth";
import { useBanner } from "../../shared/banner-provider";
import { useView } from "../../shared/view-provider";

export function AuthView() {
  const { navigate } = useView();
  const { signIn } = useAuth();
  const { showError, showSuccess } = useBanner();
  // Arriving from a verified email or a new password: the address is already known.
  const [identifier] = useState(takeSignInEmail);
  // Arriving from a "create your first story" action: the register form, not sign-in.
  const [register] = useState(takeRegisterRequest);
  return (
    <AuthScreen
      initialMode={register && !identifier ? "register" : "signin"}
      initialIdentifier={identifier}
      onSignedIn={signIn}
      onVerificationRequired={(pending, notice) => {
        writePendingUser(pending);
        if (notice.kind === "success") showSuccess(notice.text);
        else showError(notice.text);
        navigate("email-verification");
      }}
      onForgotPassword={() => navigate("forgot-password")}
      onBackToHome={() => navigate("landing")}
    />
  );
}
