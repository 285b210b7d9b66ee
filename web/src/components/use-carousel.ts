// The behaviour both image carousels share (WAI-ARIA APG carousel pattern): advance on a timer, let a
// dot pick a slide (which then gets its full interval), stop while a keyboard user's focus is inside or
// after Pause (WCAG 2.2.2), and announce slides politely only while nothing rotates. Reduced motion drops
// each carousel's cross-fade (its markup), never the rotation. The markup stays with each carousel.
import { type FocusEvent, type HTMLAttributes, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";

export interface Carousel {
  active: number;
  select: (index: number) => void;
  paused: boolean;
  togglePaused: () => void;
  /** The id of the slides' container, for the controls' aria-controls. */
  slidesId: string;
  /** For the carousel's outer element. */
  rootProps: Pick<HTMLAttributes<HTMLElement>, "onFocus" | "onBlur" | "aria-roledescription">;
  /** For the element that holds the slides. */
  slidesProps: { id: string; "aria-live": "off" | "polite" };
  /** For each slide: a labelled group, hidden and inert unless shown. */
  slideProps: (index: number) => {
    role: "group";
    /** "slide", in the interface's language. */
    "aria-roledescription": string;
    "aria-label": string;
    "aria-hidden": boolean;
    inert: boolean;
  };
}

export function useCarousel(count: number, intervalMs: number): Carousel {
  const { t } = useTranslation("common");
  const [active, setActive] = useState(0);
  const [paused, setPaused] = useState(false);
  const [keyboardFocusInside, setKeyboardFocusInside] = useState(false);
  const slidesId = useId();
  const rotating = !paused && !keyboardFocusInside && count > 1;

  useEffect(() => {
    if (!rotating) return;
    // Keyed on `active`, so a slide picked from its dot also gets its full interval.
    const timer = window.setTimeout(() => setActive((active + 1) % count), intervalMs);
    return () => window.clearTimeout(timer);
  }, [rotating, active, intervalMs, count]);

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    // A mouse click focuses the button too; only a keyboard user reading the slides should stop them.
    if (event.target.matches(":focus-visible")) setKeyboardFocusInside(true);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setKeyboardFocusInside(false);
  };

  return {
    active,
    select: setActive,
    paused,
    togglePaused: () => setPaused((value) => !value),
    slidesId,
    rootProps: { onFocus, onBlur, "aria-roledescription": t("carousel.roleDescription") },
    slidesProps: { id: slidesId, "aria-live": rotating ? "off" : "polite" },
    slideProps: (index) => ({
      role: "group",
      "aria-roledescription": t("carousel.slideRoleDescription"),
      "aria-label": t("carousel.slideLabel", { index: index + 1, count }),
      "aria-hidden": index !== active,
      inert: index !== active,
    }),
  };
}
