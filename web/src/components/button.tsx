// The product's button: one of the shared variants and sizes (button-classes.ts), an optional icon before
// the label, and a loading state that puts the spinner in front of the busy label (in the icon's place) and
// disables the button, so no form places its own.
import { LoaderCircle } from "lucide-react";
import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { type ButtonSize, type ButtonVariant, buttonClasses } from "./button-classes";

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows the spinner (and `loadingText`, if given, in place of the label) and disables the button. */
  loading?: boolean;
  loadingText?: ReactNode;
  /** An icon before the label (aria-hidden); the spinner takes its place while loading. */
  icon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = "primary",
  size = "md",
  loading = false,
  loadingText,
  icon,
  disabled,
  className = "",
  type = "button",
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={`${buttonClasses(variant, size)} ${className}`}
      {...props}
    >
      {loading ? <Spinner /> : icon}
      {loading && loadingText !== undefined ? loadingText : children}
    </button>
  );
}

/** The small spinner that stands before a busy label. */
export function Spinner({ className = "size-4" }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={`${className} animate-spin`} />;
}
