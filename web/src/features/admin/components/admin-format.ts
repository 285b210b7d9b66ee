// Small shared pieces of the admin console: its card, and reading a credits field.
export const cardClasses = "rounded-3xl border border-line bg-surface p-6 shadow-soft";

/** A credits field's value: a number with at most one decimal, null when empty, undefined when invalid. */
export function parseCredits(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (!/^\d+(\.\d)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

export const capText = (value: number | null) => (value === null ? "" : String(value));
