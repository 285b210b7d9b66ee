// The email-verification screen: pending (check your inbox, resend,
// back to login), verifying (a token in the URL, checked once and automatically), success (then the sign-in
// after 3 s) or error (resend, back to login). A link that signed this browser in (decision 0153) hands its
// session on instead: the app opens the stories signed in.
import { type AuthResponse, VERIFY_LINK_TTL_HOURS } from "@storyverse/contract/accounts";
import { useMutation } from "@tanstack/react-query";
import { LoaderCircle, MailCheck, MailWarning } from "lucide-react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { resendVerification } from "../api/resend-verification";
import { verifyEmailOnce } from "../api/verify-email";
import { MESSAGES, resendErrorMessage, verifyErrorMessage } from "../auth-rules";
import { AccountScreen } from "./account-screen";
import { SuccessRedirectCard } from "./redirect-notice";

type VerificationState =
  | { step: "pending" }
  | { step: "verifying" }
  | { step: "success"; message: string; email?: string }
  | { step: "error"; message: string };

export interface EmailVerificationScreenProps {
  /** The token from the mail's link, if the screen was opened by one. */
  token: string | null;
  /** The address of the account waiting for verification (session storage), if known. */
  pendingEmail: string | null;
  /**
   * Called once the link worked (forget the pending account, tidy the URL), with the session when the link was
   * opened in the browser that signed up.
   */
  onVerified: (session?: AuthResponse) => void;
  /** 3 s after success (or at once, by Sign in now): the sign-in, with the verified address. */
  onDone: (email?: string) => void;
  onBackToLogin: () => void;
  onBackToHome: () => void;
}

export function EmailVerificationScreen({
  token,
  pendingEmail,
  onVerified,
  onDone,
  onBackToLogin,
  onBackToHome,
}: EmailVerificationScreenProps) {
  const { t } = useTranslation("accounts");
  const [state, setState] = useState<VerificationState>(token ? { step: "verifying" } : { step: "pending" });

  useEffect(() => {
    if (!token) return;
    let current = true;
    // verifyEmailOnce shares one request per token, so StrictMode's second effect run waits on the first.
    verifyEmailOnce(token).then(
      (response) => {
        if (!current) return;
        // Signed in by the link: the app moves on to the stories with the session (no sign-in to lead to).
        if (!response.session?.access_token) {
          setState({ step: "success", message: MESSAGES.verified, email: response.email });
        }
        onVerified(response.session);
      },
      (error: unknown) => {
        if (current) setState({ step: "error", message: verifyErrorMessage(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [token, onVerified]);

  if (state.step === "verifying") {
    return (
      <AccountScreen
        icon={LoaderCircle}
        busy
        title={t("emailVerification.verifyingTitle")}
        description={<p role="status">{t("emailVerification.verifyingText")}</p>}
        onBackToHome={onBackToHome}
      />
    );
  }

  if (state.step === "success") {
    const { email } = state;
    return (
      <SuccessRedirectCard
        title={t("emailVerification.verifiedTitle")}
        message={state.message}
        onDone={() => onDone(email)}
        onBackToHome={onBackToHome}
      />
    );
  }

  const failed = state.step === "error";
  return (
    <AccountScreen
      icon={failed ? MailWarning : MailCheck}
      tone={failed ? "danger" : "accent"}
      title={failed ? t("emailVerification.failedTitle") : t("emailVerification.pendingTitle")}
      description={
        failed ? null : pendingEmail ? (
          <p>
            <Trans
              t={t}
              i18nKey="emailVerification.sentTo"
              values={{ email: pendingEmail }}
              components={{
                strong: (
                  <strong
                    data-user-text
                    className="inline-block max-w-full font-semibold break-all text-ink"
                  />
                ),
              }}
            />
          </p>
        ) : (
          <p>{t("emailVerification.sentToInbox")}</p>
        )
      }
      onBackToHome={onBackToHome}
    >
      {failed ? (
        <div data-server-text className="mt-4">
          <FormAlert message={state.message} />
        </div>
      ) : (
        <p className="mt-4 text-sm leading-6 text-ink-muted">
          {t("emailVerification.cantFindIt", { count: VERIFY_LINK_TTL_HOURS })}
        </p>
      )}
      <ResendActions pendingEmail={pendingEmail} onBackToLogin={onBackToLogin} />
    </AccountScreen>
  );
}

function ResendActions({
  pendingEmail,
  onBackToLogin,
}: {
  pendingEmail: string | null;
  onBackToLogin: () => void;
}) {
  const { t } = useTranslation("accounts");
  const [status, setStatus] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const resend = useMutation({ mutationFn: resendVerification });

  const onResend = () => {
    if (resend.isPending) return;
    if (!pendingEmail) {
      setStatus({ tone: "danger", text: MESSAGES.resendNoEmail });
      return;
    }
    setStatus(null);
    resend.mutate(pendingEmail, {
      onSuccess: () => setStatus({ tone: "success", text: MESSAGES.resendSent }),
      onError: (error) => setStatus({ tone: "danger", text: resendErrorMessage(error) }),
    });
  };

  return (
    <div className="mt-6 flex flex-col gap-3">
      <div data-server-text>
        <FormAlert
          tone="success"
          className="mb-1"
          message={status?.tone === "success" ? status.text : null}
        />
        <FormAlert className="mb-1" message={status?.tone === "danger" ? status.text : null} />
      </div>
      <Button
        className="w-full"
        onClick={onResend}
        loading={resend.isPending}
        loadingText={t("emailVerification.sending")}
      >
        {t("emailVerification.resend")}
      </Button>
      <Button variant="secondary" className="w-full" onClick={onBackToLogin}>
        {t("common.backToLogin")}
      </Button>
    </div>
  );
}
