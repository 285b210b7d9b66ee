// Password reset: email, then sent (always, whether or
// not an account exists), then reset (opened by the token in the mail's link), then success and home
// after 3 s.
import { forgotPasswordMessage, RESET_LINK_TTL_MINUTES } from "@storyverse/contract/accounts";
import { useMutation } from "@tanstack/react-query";
import { KeyRound, LockKeyhole, MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { PasswordField, TextField } from "../../../components/text-field";
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

const linkExpiry = RESET_LINK_TTL_MINUTES === 60 ? "1 hour" : `${RESET_LINK_TTL_MINUTES} minutes`;

export function ForgotPasswordScreen({
  token,
  onTokenSpent,
  onDone,
  onBackToLogin,
  onBackToHome,
}: ForgotPasswordScreenProps) {
  const [step, setStep] = useState<ResetStep>(token ? "reset" : "email");
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState("");
  const [successMessage, setSuccessMessage] = useState("");
  const [accountEmail, setAccountEmail] = useState<string | undefined>();

  const common = { onBackToHome };

  if (step === "sent") {
    return (
      <AccountScreen icon={MailCheck} title="Check Your Inbox" {...common}>
        <p role="status" className="mt-3 leading-7 text-ink-muted">
          {forgotPasswordMessage(sentTo)}
        </p>
        <p className="mt-4 rounded-xl bg-surface-2 px-4 py-3 text-sm leading-6 text-ink-muted">
          The link expires in {linkExpiry} and works once. Nothing there? Check your spam folder, or send
          another.
        </p>
        <div className="mt-6 flex flex-col gap-3">
          <Button className="w-full" onClick={() => setStep("email")}>
            Send Another Reset Email
          </Button>
          <Button variant="secondary" className="w-full" onClick={onBackToLogin}>
            Back to Login
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
        title="Password Reset"
        message={successMessage || "Your password has been reset. You can now sign in with it."}
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
          setError(failure.message);
        } else onSent(address);
      },
    });
  };

  return (
    <AccountScreen
      icon={KeyRound}
      title="Reset Your Password"
      description={
        <p>Enter the email address of your account and we'll send you a link to choose a new password.</p>
      }
      onBackToHome={onBackToHome}
    >
      <form
        noValidate
        aria-label="Reset your password"
        onSubmit={onSubmit}
        className="mt-6 flex flex-col gap-5"
      >
        <TextField
          label="Email address"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          onValueChange={onEmailChange}
        />
        <FormAlert message={error} />
        <Button type="submit" className="w-full" loading={send.isPending} loadingText="Sending...">
          Send Reset Link
        </Button>
        <Button variant="secondary" className="w-full" onClick={onBackToLogin}>
          Back to Login
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
      title="Choose a New Password"
      description={
        <p>Pick a new password of at least 6 characters. Saving it signs you out on all your devices.</p>
      }
      onBackToHome={onBackToHome}
    >
      <form
        noValidate
        aria-label="Choose a new password"
        onSubmit={onSubmit}
        className="mt-6 flex flex-col gap-5"
      >
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          value={password}
          onValueChange={setPassword}
        />
        <PasswordField
          label="Confirm new password"
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          onValueChange={setConfirmPassword}
        />
        <FormAlert message={error} />
        <Button type="submit" className="w-full" loading={reset.isPending} loadingText="Resetting...">
          Reset Password
        </Button>
        <Button variant="secondary" className="w-full" onClick={onRequestNewLink}>
          Request a New Link
        </Button>
      </form>
    </AccountScreen>
  );
}
