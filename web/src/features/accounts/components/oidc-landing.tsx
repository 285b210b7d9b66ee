// Back from sign-in by OIDC (decision 0147): with a session, a short "Signing you in" while the app learns
// whose it is (then stories, as after a password sign-in); with a link request, the screen that asks for the
// existing account's password once, so the provider's sign-in opens it from then on.
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link2, LoaderCircle } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { PasswordField } from "../../../components/text-field";
import type { StoredUser } from "../../../lib/storage";
import { linkAccount, sessionUser } from "../api/oidc";
import { authErrorMessage, authOutcome } from "../auth-rules";
import { linkErrorMessage } from "../oidc-rules";
import { AccountScreen } from "./account-screen";

type SignedIn = (token: string, user: StoredUser) => void;

export interface OidcSigningInProps {
  accessToken: string;
  /** null while the server's configuration has not said it. */
  providerName: string | null;
  onSignedIn: SignedIn;
  /** The session could not be opened: back to the sign-in with these words. */
  onFailed: (message: string) => void;
  onBackToHome: () => void;
}

export function OidcSigningIn({
  accessToken,
  providerName,
  onSignedIn,
  onFailed,
  onBackToHome,
}: OidcSigningInProps) {
  const { t } = useTranslation("accounts");
  const session = useQuery({
    queryKey: ["oidc-session", accessToken],
    queryFn: () => sessionUser(accessToken),
    retry: false,
    gcTime: 0,
  });
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    if (session.data) {
      done.current = true;
      const { user_id, email, username, credits_remaining } = session.data;
      onSignedIn(accessToken, { id: user_id, email, username, credits_remaining });
    } else if (session.error) {
      done.current = true;
      onFailed(authErrorMessage(session.error));
    }
  }, [session.data, session.error, accessToken, onSignedIn, onFailed]);
  return (
    <SigningIn
      description={providerName ? t("oidc.confirmed", { name: providerName }) : undefined}
      onBackToHome={onBackToHome}
    />
  );
}

function SigningIn({ description, onBackToHome }: { description?: string; onBackToHome: () => void }) {
  const { t } = useTranslation("accounts");
  return (
    <AccountScreen
      icon={LoaderCircle}
      busy
      title={t("oidc.signingIn")}
      description={<p role="status">{description ?? t("oidc.openingStories")}</p>}
      onBackToHome={onBackToHome}
    />
  );
}

/** The same screen while the app learns what to show next (the provider's name). */
export function OidcWaiting({ onBackToHome }: { onBackToHome: () => void }) {
  const { t } = useTranslation("accounts");
  return <SigningIn description={t("oidc.oneMoment")} onBackToHome={onBackToHome} />;
}

export interface OidcLinkScreenProps {
  token: string;
  email: string;
  providerName: string;
  onSignedIn: SignedIn;
  onCancel: () => void;
  onBackToHome: () => void;
}

export function OidcLinkScreen({
  token,
  email,
  providerName,
  onSignedIn,
  onCancel,
  onBackToHome,
}: OidcLinkScreenProps) {
  const { t } = useTranslation("accounts");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const link = useMutation({ mutationFn: linkAccount });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (link.isPending) return;
    if (password === "") {
      setError(t("oidc.passwordRequired"));
      return;
    }
    setError(null);
    link.mutate(
      { token, password },
      {
        onSuccess: (response) => {
          const outcome = authOutcome("signin", response);
          if (outcome.kind === "signed-in") onSignedIn(outcome.token, outcome.user);
          else setError(authErrorMessage(null));
        },
        onError: (failure) => setError(linkErrorMessage(failure)),
      },
    );
  };

  return (
    <AccountScreen
      icon={Link2}
      title={t("oidc.linkTitle", { name: providerName })}
      description={
        <p>
          <Trans
            t={t}
            i18nKey="oidc.linkText"
            values={{ email, name: providerName }}
            components={{ strong: <span data-user-text className="font-semibold text-ink" /> }}
          />
        </p>
      }
      onBackToHome={onBackToHome}
    >
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label={t("oidc.linkFormLabel")}
        className="mt-6 flex flex-col gap-5"
      >
        <PasswordField
          label={t("authScreen.fields.password")}
          name="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          onValueChange={(value) => {
            setPassword(value);
            setError(null);
          }}
        />
        <div data-server-text className="contents">
          <FormAlert message={error} />
        </div>
        <Button type="submit" className="w-full" loading={link.isPending} loadingText={t("oidc.linking")}>
          {t("oidc.linkSubmit")}
        </Button>
        <Button variant="secondary" className="w-full" onClick={onCancel} disabled={link.isPending}>
          {t("common.cancel")}
        </Button>
      </form>
    </AccountScreen>
  );
}
