// A form label with what sits at its right: a character counter (x/30) or a note such as 'Optional'.
import type { ReactNode } from "react";

export const textareaClasses =
  "w-full min-w-0 resize-y rounded-xl border border-line bg-canvas px-4 py-3 text-base leading-6 text-ink shadow-inner " +
  "transition duration-200 outline-none placeholder:text-ink-muted/80 hover:border-ink-muted/50 " +
  "focus:border-accent-500 focus-visible:outline-2 focus-visible:outline-offset-2";

interface FieldLabelProps {
  htmlFor: string;
  children: ReactNode;
  counter?: string;
  aside?: string;
}

export function FieldLabel({ htmlFor, children, counter, aside }: FieldLabelProps) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <label htmlFor={htmlFor} className="text-sm font-medium text-ink">
        {children}
      </label>
      {counter ? (
        <span className="text-xs font-medium text-ink-muted tabular-nums">{counter}</span>
      ) : aside ? (
        <span className="text-xs font-medium text-ink-muted">{aside}</span>
      ) : null}
    </div>
  );
}
