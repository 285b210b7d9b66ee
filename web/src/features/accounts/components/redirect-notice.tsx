// "Taking you home in 3 seconds": the success screens' promised redirect (spec §9), with a visible
// countdown so it is never a surprise, and a button for those who would rather not wait.
import { useEffect, useRef, useState } from "react";

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
  return (
    <p className="mt-4 text-sm text-ink-muted">
      Taking you to the home page in {secondsLeft} {secondsLeft === 1 ? "second" : "seconds"}…
    </p>
  );
}
