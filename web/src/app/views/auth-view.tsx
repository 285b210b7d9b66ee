// The auth screen, wired to the app: a session signs in (the view provider then opens stories); an
// account that must verify its email goes to the verification screen with the notice the form
// gives (a success or an error banner). The sign-in the server offers (passwords, OIDC) comes from
// GET /api/config; back from the OIDC provider, the landing's session, link request or refusal is finished
// here (decision 0147).

import { ACCOUNT_DELETED_MESSAGE } from "@storyverse/contract/leave";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthScreen, type SignInChoices } from "../../features/accounts/components/auth-screen";
import { OidcLinkScreen, OidcSigningIn, OidcWaiting } from "../../features/accounts/components/oidc-landing";
import { clearOidcReturn, type OidcReturn, pendingOidcReturn } from "../../features/accounts/oidc-return";
import { providerFallbackName, refusalMessage } from "../../features/accounts/oidc-rules";
import { translateServerMessage } from "../../i18n/server-messages";
import { takeRegisterRequest, takeSignInEmail, writePendingUser } from "../../lib/storage";
import { useAuth } from "../../shared/auth";
import { useBanner } from "../../shared/banner-provider";
import { useServerConfig } from "../../shared/conversation/api/server-config";
import { useView } from "../../shared/view-provider";

export function AuthView() {
  // The refusal's words and the provider's fallback name are written here: a language switch re-renders them.
  useTranslation("accounts");
  const { navigate } = useView();
  const { signIn } = useAuth();
  const { showError, showSuccess } = useBanner();
  // Arriving from a verified email or a new password: the address is already known.
  const [identifier] = useState(takeSignInEmail);
  // Arriving from a "create your first story" action: the register form, not sign-in.
  const [register] = useState(takeRegisterRequest);
  const configQuery = useServerConfig();
  const config = configQuery.data;
  // The provider's name is known (or will not be): the landing's screens and words may name it.
  const configSettled = !configQuery.isPending;
  const signInOptions: SignInChoices | undefined = config
    ? { password: config.sign_in?.password ?? true, oidcName: config.sign_in?.oidc?.name ?? null }
    : undefined;
  const providerName = signInOptions?.oidcName ?? providerFallbackName();
  const [oidc, setOidc] = useState<OidcReturn | null>(pendingOidcReturn);
  const [failure, setFailure] = useState<string | null>(null);
  // A refusal is shown by this screen once: it is not there again after a move away and back.
  useEffect(() => {
    if (oidc?.kind === "refused") clearOidcReturn();
    // Deleted by a fresh sign-in at the provider (decision 0158): said once, as the password's deletion says it.
    if (oidc?.kind === "deleted") {
      clearOidcReturn();
      showSuccess(translateServerMessage(ACCOUNT_DELETED_MESSAGE));
    }
  }, [oidc, showSuccess]);

  const finish = useCallback(() => {
    clearOidcReturn();
    setOidc(null);
  }, []);
  const signedInByProvider = useCallback(
    (token: string, user: Parameters<typeof signIn>[1]) => {
      clearOidcReturn();
      signIn(token, user, { via: "oidc" });
    },
    [signIn],
  );
  const failed = useCallback(
    (message: string) => {
      finish();
      setFailure(message);
    },
    [finish],
  );
  const home = () => {
    finish();
    navigate("landing");
  };

  if (oidc?.kind === "session") {
    return (
      <OidcSigningIn
        accessToken={oidc.accessToken}
        providerName={signInOptions?.oidcName ?? null}
        onSignedIn={signedInByProvider}
        onFailed={failed}
        onBackToHome={home}
      />
    );
  }
  if (oidc?.kind === "link" && !configSettled) {
    return <OidcWaiting onBackToHome={home} />;
  }
  if (oidc?.kind === "link") {
    return (
      <OidcLinkScreen
        token={oidc.token}
        email={oidc.email}
        providerName={providerName}
        onSignedIn={signedInByProvider}
        onCancel={finish}
        onBackToHome={home}
      />
    );
  }
  const notice =
    oidc?.kind === "refused"
      ? configSettled
        ? refusalMessage(oidc.reason, oidc.code, providerName)
        : null
      : failure;
  return (
    <AuthScreen
      initialMode={register && !identifier ? "register" : "signin"}
      initialIdentifier={identifier}
      signInOptions={configSettled ? signInOptions : "loading"}
      notice={notice}
      onSignedIn={(token, user) => {
        if (oidc) finish();
        setFailure(null);
        signIn(token, user);
      }}
      onVerificationRequired={(pending, notice) => {
        writePendingUser(pending);
        if (notice.kind === "success") showSuccess(notice.text);
        else showError(notice.text);
        navigate("email-verification");
      }}
      onForgotPassword={() => navigate("forgot-password")}
      onBackToHome={home}
    />
  );
}
