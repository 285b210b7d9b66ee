// Class names for the product's buttons (and links styled as buttons), so every call to action shares
// one size scale, one focus ring and the one accent gradient for primary actions.

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
export type ButtonSize = "xs" | "sm" | "md" | "lg";

const BASE =
  "inline-flex shrink-0 select-none items-center justify-center gap-2 rounded-xl font-semibold whitespace-nowrap " +
  "transition duration-200 ease-out disabled:cursor-not-allowed disabled:opacity-60";

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    "bg-primary-gradient text-white shadow-[0_8px_24px_-10px_rgb(124_58_237/0.7)] hover:brightness-110 " +
    "hover:shadow-[0_12px_28px_-10px_rgb(124_58_237/0.8)] active:brightness-95",
  secondary:
    "border border-line bg-surface text-ink shadow-soft hover:border-accent-400/60 hover:bg-surface-2",
  ghost: "text-ink-muted hover:bg-surface-2 hover:text-ink",
  // For what cannot be undone (e.g. deleting a story).
  danger: "bg-red-600 text-white shadow-[0_8px_24px_-10px_rgb(220_38_38/0.7)] hover:bg-red-700",
};

const SIZES: Record<ButtonSize, string> = {
  // Compact actions inside a message or a card (Edit, Retry, Save...).
  xs: "h-8 px-2.5 text-xs",
  sm: "h-10 px-4 text-sm",
  md: "h-12 px-6 text-sm",
  lg: "h-14 px-8 text-base",
};

export function buttonClasses(variant: ButtonVariant = "primary", size: ButtonSize = "md"): string {
  return `${BASE} ${VARIANTS[variant]} ${SIZES[size]}`;
}

/** A square icon-only button; give it an aria-label. */
export const iconButtonClasses =
  "inline-grid size-10 shrink-0 place-items-center rounded-xl text-ink-muted transition duration-200 " +
  "hover:bg-surface-2 hover:text-ink";
