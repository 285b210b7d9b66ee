/** The product mark: a four-point star in the accent gradient, then the name. Decorative around text. */
export function LogoMark({ className = "size-8" }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`bg-primary-gradient inline-grid place-items-center rounded-[10px] shadow-[0_6px_16px_-6px_rgb(124_58_237/0.8)] ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-[62%]" fill="white">
        <path d="M12 2.5l2.1 6.2 6.4 2.3-6.4 2.3L12 19.5l-2.1-6.2L3.5 11l6.4-2.3z" />
        <circle cx="18.6" cy="18.4" r="1.6" opacity="0.85" />
      </svg>
    </span>
  );
}

export function Wordmark() {
  return (
    <span className="inline-flex items-center gap-2.5 text-lg font-semibold tracking-tight text-ink">
      <LogoMark />
      Storyverse
    </span>
  );
}
