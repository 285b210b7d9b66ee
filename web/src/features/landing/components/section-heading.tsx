import type { ReactNode } from "react";

interface SectionHeadingProps {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  align?: "center" | "left";
}

/** A section's eyebrow, h2 and lede; the h2's id labels the section. */
export function SectionHeading({ id, eyebrow, title, children, align = "center" }: SectionHeadingProps) {
  const centered = align === "center";
  return (
    <div className={centered ? "mx-auto max-w-2xl text-center" : "max-w-xl"}>
      <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-semibold tracking-tight text-balance sm:text-4xl lg:text-5xl">
        {title}
      </h2>
      {children ? <p className="mt-4 text-lg leading-8 text-ink-muted">{children}</p> : null}
    </div>
  );
}
