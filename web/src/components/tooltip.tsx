// A small tooltip for icon controls: shown on hover and on keyboard focus (hidden, not just transparent,
// otherwise), announced as the control's
// description (aria-describedby), never in the way of the pointer. CSS only, so it costs nothing until seen.
import { cloneElement, type ReactElement, useId } from "react";

type Side = "top" | "right" | "bottom" | "left";

const PLACEMENT: Record<Side, string> = {
  top: "bottom-full left-1/2 mb-2 -translate-x-1/2",
  bottom: "top-full left-1/2 mt-2 -translate-x-1/2",
  right: "inset-s-full top-1/2 ms-3 -translate-y-1/2",
  left: "inset-e-full top-1/2 me-2 -translate-y-1/2",
};

interface TooltipProps {
  label: string;
  side?: Side;
  /** One focusable element; it gets aria-describedby pointing at the tooltip. */
  children: ReactElement<{ "aria-describedby"?: string }>;
  className?: string;
}

export function Tooltip({ label, side = "top", children, className = "" }: TooltipProps) {
  const id = useId();
  return (
    <span className={`group/tip relative inline-flex ${className}`}>
      {cloneElement(children, { "aria-describedby": id })}
      <span
        role="tooltip"
        id={id}
        className={`pointer-events-none absolute z-50 w-max max-w-56 rounded-lg border border-line bg-surface px-2.5 py-1.5 text-xs font-medium text-ink invisible opacity-0 shadow-lifted transition-opacity duration-150 group-hover/tip:visible group-hover/tip:opacity-100 group-has-[:focus-visible]/tip:visible group-has-[:focus-visible]/tip:opacity-100 ${PLACEMENT[side]}`}
      >
        {label}
      </span>
    </span>
  );
}
