// "Taking you to the sign-in page in 3 seconds": the success screens' redirect (3 s after a verified email or a new
// password) to the sign-in with the address filled in, with a visible countdown so it is never a surprise,
// and a button for those who would rather not wait.
import { CircleCheck } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { AccountScreen } from "./account-screen";

export const REDIRECT_DELAY_MS = 3_000;

export function useRedirectAfter(onDone: () => void, delayMs: number = REDIRECT_DELAY_MS): number {
  const [secondsLeft, setSecondsLeft] = useState(Math.ceil(delayMs / 1000));
  // The latest callback, without restarting the clock when the caller re-renders.
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    const started = Date.now();
    const tick = window.setInterval(() => {
      setSecondsLeft(Math.max(0, Math.ceil((delayMs - (Date.now() - started)) / 1000)));
    }, 250);
    const timer = window.setTimeout(() => done.current(), delayMs);
    return () => {
      window.clearInterval(tick);
      window.clearTimeout(timer);
    };
  }, [delayMs]);
  return secondsLeft;
}

export function RedirectNotice({ secondsLeft }: { secondsLeft: number }) {
  const { t } = useTranslation("accounts");
  return <p className="mt-4 text-sm text-ink-muted">{t("redirect.countdown", { count: secondsLeft })}</p>;
}

interface SuccessRedirectCardProps {
  title: string;
  message: string;
  /** 3 s after success, or at once by Sign in now: the sign-in. */
  onDone: () => void;
  onBackToHome: () => void;
}

/** The success screen both account flows end on: the message, the countdown home, and Sign in now. */
export function SuccessRedirectCard({ title, message, onDone, onBackToHome }: SuccessRedirectCardProps) {
  const { t } = useTranslation("accounts");
  const secondsLeft = useRedirectAfter(onDone);
  return (
    <AccountScreen icon={CircleCheck} tone="success" title={title} onBackToHome={onBackToHome}>
      <div data-server-text className="mt-4">
        <FormAlert tone="success" message={message} />
      </div>
      <RedirectNotice secondsLeft={secondsLeft} />
      <Button className="mt-6 w-full" onClick={onDone}>
        {t("redirect.signInNow")}
      </Button>
    </AccountScreen>
  );
}
