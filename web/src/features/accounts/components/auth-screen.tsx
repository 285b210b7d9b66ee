// The auth screen: sign in or register, switched by
// 'Create one' / 'Sign in' (which clears fields, errors and availability messages), live availability
// checks while registering, a connectivity probe, and the slideshow beside the form on wide screens.
// What a successful answer leads to (a session, or the email-verification screen) is decided by
// auth-rules.ts and carried out by the caller. Where the server offers sign-in by OIDC, "Sign in with
// <provider>" stands above the form; where it has turned passwords off, it stands alone (decision 0147).
// The language picker sits in the top bar, so a visitor can switch before signing in; a new account starts in
// the language it was created in (decision 0155).

import { type AuthResponse, LOCALES, type Locale, PASSWORD_MIN_LENGTH } from "@storyverse/contract/accounts";
import { useMutation } from "@tanstack/react-query";
import { CircleAlert, KeyRound, ServerCrash, WifiOff } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { PasswordField, TextField } from "../../../components/text-field";
import { LogoMark } from "../../../components/wordmark";
import { currentLanguage } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import type { PendingUser, StoredUser } from "../../../lib/storage";
import { LanguagePicker } from "../../../shared/language/language-picker";
import { useConnectivity } from "../api/health";
import { login } from "../api/login";
import { register } from "../api/register";
import {
  type AuthFormValues,
  type AuthMode,
  authErrorMessage,
  authOutcome,
  EMPTY_AUTH_FORM,
  MESSAGES,
  type RegisterField,
  registerFieldErrors,
  registrationNotice,
  validateAuthForm,
} from "../auth-rules";
import { OIDC_START_PATH } from "../oidc-return";
import { AccountTopBar } from "./account-screen";
import { AuthSlideshow } from "./auth-slideshow";
import { AvailabilityHint } from "./availability-hint";
import { useAvailability } from "./use-availability";

export interface AuthScreenProps {
  onSignedIn: (token: string, user: StoredUser) => void;
  /** The account must verify its email first; `notice` is the alert to show on the way. */
  onVerificationRequired: (pending: PendingUser, notice: { kind: "error" | "success"; text: string }) => void;
  onForgotPassword: () => void;
  onBackToHome: () => void;
  initialMode?: AuthMode;
  /** Fills "Email or username" (after a verified email or a password reset); the password gets the focus. */
  initialIdentifier?: string | null;
  /**
   * The sign-in the server offers (GET /api/config's sign_in); "loading" while the server has not said (no
   * form yet: an install without passwords must not show one for a moment); absent: the password form.
   */
  signInOptions?: SignInChoices | "loading";
  /** Why a sign-in by OIDC just failed, in the app's words. */
  notice?: string | null;
}

export interface SignInChoices {
  /** Email and password sign-in, registration and resets are on. */
  password: boolean;
  /** The OIDC provider's name, when sign-in by OIDC is on. */
  oidcName: string | null;
}

/** The server answers but cannot serve (its database is down): the server's own words for a 503. */
const SERVER_UNAVAILABLE_MESSAGE = "Storyverse is unavailable right now. Please try again in a moment.";

/** The interface's language, for a new account (its mails are written in it); none for a pseudo-language. */
function signUpLocale(): Locale | undefined {
  const language = currentLanguage();
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : undefined;
}

function submitAuth({ mode, values }: { mode: AuthMode; values: AuthFormValues }): Promise<AuthResponse> {
  if (mode === "signin") return login({ email: values.email.trim(), password: values.password });
  const locale = signUpLocale();
  return register({
    email: values.email.trim(),
    username: values.username.trim(),
    password: values.password,
    ...(locale ? { locale } : {}),
  });
}

export function AuthScreen({
  onSignedIn,
  onVerificationRequired,
  onForgotPassword,
  onBackToHome,
  initialMode = "signin",
  initialIdentifier = null,
  signInOptions: offered = { password: true, oidcName: null },
  notice = null,
}: AuthScreenProps) {
  const { t } = useTranslation("accounts");
  const signInOptions = offered === "loading" ? { password: false, oidcName: null } : offered;
  const passwords = signInOptions.password;
  const [chosenMode, setMode] = useState<AuthMode>(initialMode);
  // Without passwords there is nothing to register: sign-in is the provider's.
  const mode: AuthMode = passwords ? chosenMode : "signin";
  const [values, setValues] = useState<AuthFormValues>(() =>
    initialIdentifier ? { ...EMPTY_AUTH_FORM, email: initialIdentifier } : EMPTY_AUTH_FORM,
  );
  // A server's refusal; the form's own problems are computed from the values below, so they never go stale.
  const [error, setError] = useState<string | null>(null);
  // Register fields show their problem once left (blur) or once a send was tried; both reset with the mode.
  const [touched, setTouched] = useState<ReadonlySet<RegisterField>>(new Set());
  const [tried, setTried] = useState(false);
  const headingId = useId();
  const firstField = useRef<HTMLInputElement>(null);
  const { offline, unavailable } = useConnectivity();

  const registering = mode === "register";
  const username = useAvailability("username", values.username, registering);
  const email = useAvailability("email", values.email, registering);

  const submit = useMutation({ mutationFn: submitAuth });
  const busy = submit.isPending;
  const copy =
    mode === "signin"
      ? {
          title: t("authScreen.signin.title"),
          lede: t("authScreen.signin.lede"),
          submit: t("authScreen.signin.submit"),
          busy: t("authScreen.signin.busy"),
        }
      : {
          title: t("authScreen.register.title"),
          lede: t("authScreen.register.lede"),
          submit: t("authScreen.register.submit"),
          busy: t("authScreen.register.busy"),
        };

  const set = (field: keyof AuthFormValues) => (value: string) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    setError(null);
  };
  const leave = (field: RegisterField) => () =>
    setTouched((prev) => (prev.has(field) ? prev : new Set(prev).add(field)));
  const fieldErrors = registering ? registerFieldErrors(values) : {};
  const shown = (field: RegisterField): string | undefined =>
    tried || touched.has(field) ? fieldErrors[field] : undefined;
  // The confirmation is judged as it is typed once it is as long as the password: a mismatch shows at once.
  const confirmProblem =
    shown("confirmPassword") ??
    (values.confirmPassword.length >= values.password.length && values.password !== ""
      ? fieldErrors.confirmPassword
      : undefined);
  const formProblem = tried ? validateAuthForm(mode, values) : null;

  const switchMode = () => {
    if (busy) return;
    setMode(registering ? "signin" : "register");
    // Clearing the values also clears both availability messages (their checks restart from empty).
    setValues(EMPTY_AUTH_FORM);
    setError(null);
    setTouched(new Set());
    setTried(false);
    submit.reset();
    queueMicrotask(() => firstField.current?.focus());
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const problem = validateAuthForm(mode, values);
    setTried(true);
    setError(null);
    if (problem) return;
    submit.mutate(
      { mode, values },
      {
        onSuccess: (response, variables) => {
          const outcome = authOutcome(variables.mode, response);
          if (outcome.kind === "error") setError(outcome.message);
          else if (outcome.kind === "signed-in") onSignedIn(outcome.token, outcome.user);
          else {
            onVerificationRequired(
              outcome.pending,
              variables.mode === "register"
                ? { kind: "success", text: registrationNotice(outcome.pending.email) }
                : { kind: "error", text: MESSAGES.verificationRequired },
            );
          }
        },
        onError: (failure) => setError(authErrorMessage(failure)),
      },
    );
  };

  return (
    <div className="min-h-dvh bg-canvas text-ink lg:grid lg:grid-cols-[minmax(0,1fr)_minmax(0,1.15fr)]">
      <div className="relative isolate flex min-h-dvh flex-col px-4 sm:px-8 lg:px-12">
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10 overflow-hidden">
          <div className="absolute -top-48 left-1/2 h-[520px] w-[760px] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,rgb(139_92_246/0.2),transparent)]" />
        </div>
        <AccountTopBar onBackToHome={onBackToHome} aside={<LanguagePicker compact />} />

        <main className="flex flex-1 items-center justify-center py-8">
          <div className="w-full max-w-[420px]">
            <LogoMark className="size-11" />
            <h1 id={headingId} className="mt-6 text-3xl font-semibold tracking-tight">
              {copy.title}
            </h1>
            <p className="mt-2 leading-7 text-ink-muted">{copy.lede}</p>

            {offline ? (
              <p
                role="status"
                className="mt-6 flex items-start gap-3 rounded-xl border border-line bg-surface-2 px-4 py-3 text-sm leading-6 text-ink-muted"
              >
                <WifiOff aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-danger" />
                <span>
                  <Trans
                    t={t}
                    i18nKey="authScreen.offline"
                    components={{ strong: <span className="font-medium text-ink" /> }}
                  />
                </span>
              </p>
            ) : null}
            {unavailable ? (
              <p
                role="status"
                className="mt-6 flex items-start gap-3 rounded-xl border border-line bg-surface-2 px-4 py-3 text-sm leading-6 text-ink-muted"
              >
                <ServerCrash aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-danger" />
                <span data-server-text className="font-medium text-ink">
                  {translateServerMessage(SERVER_UNAVAILABLE_MESSAGE)}
                </span>
              </p>
            ) : null}

            {notice ? (
              <div data-server-text>
                <FormAlert message={notice} className="mt-6" />
              </div>
            ) : null}

            {signInOptions.oidcName ? (
              <ProviderSignIn name={signInOptions.oidcName} alone={!passwords} registering={registering} />
            ) : null}

            {passwords ? (
              <form
                noValidate
                aria-labelledby={headingId}
                onSubmit={onSubmit}
                className="mt-8 flex flex-col gap-5"
              >
                {registering ? (
                  <>
                    <TextField
                      ref={firstField}
                      label={t("authScreen.fields.username")}
                      name="username"
                      autoComplete="username"
                      autoCapitalize="none"
                      autoCorrect="off"
                      spellCheck={false}
                      value={values.username}
                      onValueChange={set("username")}
                      onBlur={leave("username")}
                      aria-invalid={shown("username") ? true : undefined}
                      hint={
                        <FieldProblem
                          message={shown("username")}
                          fallback={<AvailabilityHint state={username} />}
                        />
                      }
                    />
                    <TextField
                      label={t("authScreen.fields.email")}
                      name="email"
                      type="email"
                      inputMode="email"
                      autoComplete="email"
                      value={values.email}
                      onValueChange={set("email")}
                      onBlur={leave("email")}
                      aria-invalid={shown("email") ? true : undefined}
                      hint={
                        <FieldProblem
                          message={shown("email")}
                          fallback={<AvailabilityHint state={email} />}
                        />
                      }
                    />
                    <PasswordField
                      label={t("authScreen.fields.password")}
                      name="password"
                      autoComplete="new-password"
                      value={values.password}
                      onValueChange={set("password")}
                      onBlur={leave("password")}
                      aria-invalid={shown("password") ? true : undefined}
                      hint={
                        <FieldProblem
                          message={shown("password")}
                          fallback={
                            <span className="text-ink-muted">
                              {t("authScreen.fields.passwordHint", { min: PASSWORD_MIN_LENGTH })}
                            </span>
                          }
                        />
                      }
                    />
                    <PasswordField
                      label={t("authScreen.fields.confirmPassword")}
                      name="confirmPassword"
                      autoComplete="new-password"
                      value={values.confirmPassword}
                      onValueChange={set("confirmPassword")}
                      onBlur={leave("confirmPassword")}
                      aria-invalid={confirmProblem ? true : undefined}
                      hint={<FieldProblem message={confirmProblem} />}
                    />
                  </>
                ) : (
                  <>
                    <TextField
                      ref={firstField}
                      label={t("authScreen.fields.emailOrUsername")}
                      name="email"
                      autoComplete="username"
                      autoCapitalize="none"
                      autoCorrect="off"
                      spellCheck={false}
                      value={values.email}
                      onValueChange={set("email")}
                    />
                    <PasswordField
                      label={t("authScreen.fields.password")}
                      name="password"
                      autoComplete="current-password"
                      autoFocus={Boolean(initialIdentifier)}
                      value={values.password}
                      onValueChange={set("password")}
                      labelAside={
                        <button
                          type="button"
                          onClick={onForgotPassword}
                          className="rounded text-sm font-medium text-accent-ink hover:underline"
                        >
                          {t("authScreen.forgotPassword")}
                        </button>
                      }
                    />
                  </>
                )}

                <div data-server-text className="contents">
                  <FormAlert message={formProblem ?? error} />
                </div>

                <Button type="submit" className="w-full" loading={busy} loadingText={copy.busy}>
                  {copy.submit}
                </Button>
              </form>
            ) : null}

            {passwords ? (
              <p className="mt-8 text-center text-sm text-ink-muted">
                {registering ? t("authScreen.haveAccount") : t("authScreen.newHere")}{" "}
                <button
                  type="button"
                  onClick={switchMode}
                  disabled={busy}
                  className="rounded font-semibold text-accent-ink hover:underline disabled:opacity-60"
                >
                  {registering ? t("authScreen.signIn") : t("authScreen.createOne")}
                </button>
              </p>
            ) : null}
          </div>
        </main>

        <div aria-hidden="true" className="h-16" />
      </div>

      <div className="sticky top-0 hidden h-dvh p-4 lg:block">
        <AuthSlideshow className="size-full" />
      </div>
    </div>
  );
}

/**
 * "Sign in with <provider>": a plain link to the server's start (a redirect to the provider), busy once
 * followed; above the password form with an "or" between them, or alone when passwords are off.
 */
function ProviderSignIn({
  name,
  alone,
  registering,
}: {
  name: string;
  alone: boolean;
  registering: boolean;
}) {
  const { t } = useTranslation("accounts");
  const [leaving, setLeaving] = useState(false);
  // Back from the provider by the browser's Back button (a page restored from its cache): usable again.
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener("pageshow", restored);
    return () => window.removeEventListener("pageshow", restored);
  }, []);
  return (
    <div className="mt-8">
      <a
        href={OIDC_START_PATH}
        onClick={() => setLeaving(true)}
        aria-disabled={leaving || undefined}
        className={`${buttonClasses(alone ? "primary" : "secondary", "md")} w-full ${leaving ? "pointer-events-none opacity-80" : ""}`}
      >
        {leaving ? <Spinner /> : <KeyRound aria-hidden="true" className="size-4" />}
        {leaving ? t("authScreen.provider.opening", { name }) : t("authScreen.provider.signInWith", { name })}
      </a>
      {alone ? null : (
        <p className="mt-8 flex items-center gap-3 text-xs font-medium uppercase tracking-wider text-ink-muted">
          <span aria-hidden="true" className="h-px flex-1 bg-line" />
          {registering ? t("authScreen.provider.orEmailPassword") : t("authScreen.provider.orPassword")}
          <span aria-hidden="true" className="h-px flex-1 bg-line" />
        </p>
      )}
    </div>
  );
}

/** A field's own problem beside it (read with the field), or what the field shows otherwise. */
function FieldProblem({ message, fallback = null }: { message?: string; fallback?: ReactNode }) {
  if (!message) return <>{fallback}</>;
  return (
    <p data-server-text className="flex items-start gap-2 text-danger">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {message}
    </p>
  );
}
