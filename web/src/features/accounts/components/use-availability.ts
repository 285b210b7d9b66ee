// Live availability check for one register field: 500 ms after typing stops, only for a value
// worth asking about, 10-second time-out. A newer keystroke aborts the older request, so an answer
// never lands on a value it was not about.
import { useEffect, useState } from "react";
import { type AvailabilityKind, checkAvailability } from "../api/check-availability";
import {
  type AvailabilityMessage,
  availabilityErrorMessage,
  availabilityMessage,
  isCheckable,
  localAvailabilityProblem,
} from "../auth-rules";

export const AVAILABILITY_DEBOUNCE_MS = 500;

export type AvailabilityState =
  | { status: "idle" }
  | { status: "checking" }
  | ({ status: "done" } & AvailabilityMessage);

const IDLE: AvailabilityState = { status: "idle" };

export function useAvailability(kind: AvailabilityKind, value: string, enabled: boolean): AvailabilityState {
  const [state, setState] = useState<AvailabilityState>(IDLE);

  useEffect(() => {
    setState(IDLE);
    const candidate = value.trim();
    if (!enabled || !isCheckable(kind, candidate)) return;

    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      const problem = localAvailabilityProblem(kind, candidate);
      if (problem) {
        setState({ status: "done", text: problem, tone: "danger" });
        return;
      }
      setState({ status: "checking" });
      checkAvailability(kind, candidate, controller.signal).then(
        (result) => {
          if (!controller.signal.aborted) {
            setState({ status: "done", ...availabilityMessage(kind, candidate, result) });
          }
        },
        (error: unknown) => {
          if (!controller.signal.aborted) {
            setState({ status: "done", ...availabilityErrorMessage(kind, error) });
          }
        },
      );
    }, AVAILABILITY_DEBOUNCE_MS);

    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [kind, value, enabled]);

  return state;
}
