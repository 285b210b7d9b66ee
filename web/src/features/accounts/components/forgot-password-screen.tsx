// Password reset: email, then sent (always, whether or
// not an account exists), then reset (opened by the token in the mail's link), then success and home
// after 3 s.
import { PASSWORD_MIN_LENGTH, RESET_LINK_TTL_MINUTES } from "@storyverse/contract/accounts";
import { useMutation } from "@tanstack/react-query";
import { KeyRound, LockKeyhole, MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { PasswordField, TextField } from "../../../components/text-field";
import { translateServerMessage } from "../../../i18n/server-messages";
import { ApiError } from "../../../lib/api-errors";
import { forgotPassword } from "../api/forgot-password";
import { resetPassword } from "../api/reset-password";
import { resetErrorMessage, validateNewPassword, validateResetEmail } from "../auth-rules";
import { AccountScreen } from "./account-screen";
import { SuccessRedirectCard } from "./redirect-notice";

export type ResetStep = "email" | "sent" | "reset" | "success";

export interface ForgotPasswordScreenProps {
  /** The token from the reset mail's link: the screen opens at the reset step. */
  token: string | null;
  /** The token has been used or abandoned: take it out of the address bar. */
  onTokenSpent: () => void;
  /** 3 s after success (or at once, by Sign in now): the sign-in, with the account's address. */
  onDone: (email?: string) => void;
  onBackToLogin: () => void;
  onBackToHome: () => void;
}

export function ForgotPasswordScreen({
  token,
  onTokenSpent,
  onDone,
  onBackToLogin,
  onBackToHome,
}: ForgotPasswordScreenProps) {
  const { t } = useTranslation("accounts");
  const [step, setStep] = useState<ResetStep>(token ? "reset" : "email");
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState("");
  const [successMessage, setSuccessMessage] = useState("");
  const [accountEmail, setAccountEmail] = useState<string | undefined>();

  const common = { onBackToHome };

  if (step === "sent") {
    return (
      <AccountScreen icon={MailCheck} title={t("forgotPassword.sentTitle")} {...common}>
        <p role="status" className="mt-3 leading-7 text-ink-muted">
          {t("forgotPassword.sentMessage", { email: sentTo })}
        </p>
        <p className="mt-4 rounded-xl bg-surface-2 px-4 py-3 text-sm leading-6 text-ink-muted">
          {RESET_LINK_TTL_MINUTES === 60
            ? t("forgotPassword.expiresHours", { count: 1 })
            : t("forgotPassword.expiresMinutes", { count: RESET_LINK_TTL_MINUTES })}
        </p>
        <div className="mt-6 flex flex-col gap-3">
          <Button className="w-full" onClick={() => setStep("email")}>
            {t("forgotPassword.sendAnother")}
          </Button>
          <Button variant="secondary" className="w-full" onClick={onBackToLogin}>
            {t("common.backToLogin")}
          </Button>
        </div>
      </AccountScreen>
    );
  }

  if (step === "reset" && token) {
    return (
      <ResetStepCard
        token={token}
        onSuccess={(message, address) => {
          setSuccessMessage(message);
          setAccountEmail(address);
          setStep("success");
          onTokenSpent();
        }}
        onRequestNewLink={() => {
          onTokenSpent();
          setStep("email");
        }}
        {...common}
      />
    );
  }

  if (step === "success") {
    return (
      <SuccessRedirectCard
        title={t("forgotPassword.successTitle")}
        message={successMessage ? translateServerMessage(successMessage) : t("forgotPassword.successMessage")}
        onDone={() => onDone(accountEmail)}
        {...common}
      />
    );
  }

  return (
    <EmailStepCard
      email={email}
      onEmailChange={setEmail}
      onSent={(address) => {
        setSentTo(address);
        setStep("sent");
      }}
      onBackToLogin={onBackToLogin}
      {...common}
    />
  );
}

function EmailStepCard({
  email,
  onEmailChange,
  onSent,
  onBackToLogin,
  onBackToHome,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  onSent: (email: string) => void;
  onBackToLogin: () => void;
  onBackToHome: () => void;
}) {
  const { t } = useTranslation("accounts");
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({ mutationFn: forgotPassword });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const problem = validateResetEmail(email);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    const address = email.trim();
    send.mutate(address, {
      onSuccess: () => onSent(address),
      onError: (failure) => {
        // The sent step is shown whatever the server decided, so no answer reveals whether an
        // account exists. Only a request that never got a say (offline, rate-limited) is reported.
        if (failure instanceof ApiError && (failure.status === 0 || failure.status === 429)) {
          setError(translateServerMessage(failure.message));
        } else onSent(address);
      },
    });
  };

  return (
    <AccountScreen
      icon={KeyRound}
      title={t("forgotPassword.emailTitle")}
      description={<p>{t("forgotPassword.emailText")}</p>}
      onBackToHome={onBackToHome}
    >
      <form
        noValidate
        aria-label={t("forgotPassword.emailFormLabel")}
        onSubmit={onSubmit}
        className="mt-6 flex flex-col gap-5"
      >
        <TextField
          label={t("forgotPassword.emailLabel")}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          onValueChange={onEmailChange}
        />
        <div data-server-text className="contents">
          <FormAlert message={error} />
        </div>
        <Button
          type="submit"
          className="w-full"
          loading={send.isPending}
          loadingText={t("forgotPassword.sending")}
        >
          {t("forgotPassword.sendLink")}
        </Button>
        <Button variant="secondary" className="w-full" onClick={onBackToLogin}>
          {t("common.backToLogin")}
        </Button>
      </form>
    </AccountScreen>
  );
}

function ResetStepCard({
  token,
  onSuccess,
  onRequestNewLink,
  onBackToHome,
}: {
  token: string;
  onSuccess: (message: string, email?: string) => void;
  onRequestNewLink: () => void;
  onBackToHome: () => void;
}) {
  const { t } = useTranslation("accounts");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const reset = useMutation({ mutationFn: resetPassword });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (reset.isPending) return;
    const problem = validateNewPassword(password, confirmPassword);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    reset.mutate(
      { token, password },
      {
        onSuccess: (response) => onSuccess(response.message, response.email),
        onError: (failure) => setError(resetErrorMessage(failure)),
      },
    );
  };

  return (
    <AccountScreen
      icon={LockKeyhole}
      title={t("forgotPassword.resetTitle")}
      description={<p>{t("forgotPassword.resetText", { min: PASSWORD_MIN_LENGTH })}</p>}
      onBackToHome={onBackToHome}
    >
      <form
        noValidate
        aria-label={t("forgotPassword.resetFormLabel")}
        onSubmit={onSubmit}
        className="mt-6 flex flex-col gap-5"
      >
        <PasswordField
          label={t("forgotPassword.newPassword")}
          name="password"
          autoComplete="new-password"
          value={password}
          onValueChange={setPassword}
        />
        <PasswordField
          label={t("forgotPassword.confirmNewPassword")}
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          onValueChange={setConfirmPassword}
        />
        <div data-server-text className="contents">
          <FormAlert message={error} />
        </div>
        <Button
          type="submit"
          className="w-full"
          loading={reset.isPending}
          loadingText={t("forgotPassword.resetting")}
        >
          {t("forgotPassword.resetSubmit")}
        </Button>
        <Button variant="secondary" className="w-full" onClick={onRequestNewLink}>
          {t("forgotPassword.requestNewLink")}
        </Button>
      </form>
    </AccountScreen>
  );
}
