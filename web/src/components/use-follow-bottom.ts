// Reading along in a scrolling log: while the reader is at the bottom, the log sticks to its newest
// content as it grows (a streaming answer, a picture that loads, a composer that grows); once they
// scroll up it lets go and says when something new has arrived below, and `catchUp` takes them down
// (smoothly, unless they asked for reduced motion). Scrolling back to the bottom by hand follows again.
// Whether the reader let go is judged from the direction of their scrolling, because growing content
// moves the bottom away without any scroll at all.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** This close to the end counts as at the bottom (rounding, a sub-pixel line, a small nudge). */
const AT_BOTTOM_PX = 24;
/** A smooth catch-up that never reports reaching the bottom (nothing left to scroll) is over by then. */
const CATCH_UP_MS = 1_500;

interface FollowBottom {
  /** The reader has scrolled up and new content arrived below. */
  hasNew: boolean;
  /** Takes the reader down to the newest content and follows it again. */
  catchUp: () => void;
}

const distanceToBottom = (element: HTMLElement) =>
  element.scrollHeight - element.scrollTop - element.clientHeight;

/** Watches the log and its top-level content (an empty log becomes a list: the new one is watched). */
function observeContent(observer: ResizeObserver | null, observed: WeakSet<Element>, element: HTMLElement) {
  if (!observer) return;
  for (const target of [element, ...Array.from(element.children)]) {
    if (observed.has(target)) continue;
    observed.add(target);
    observer.observe(target);
  }
}

const isSettling = (until: { current: number }) => performance.now() < until.current;

const prefersReducedMotion = () =>
  typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * @param contentKey changes whenever the log's content does (new words, new messages): followed while
 *   following, announced as new otherwise.
 * @param restartKey changes when the reader acts (e.g. sends a turn): they are taken to the bottom and
 *   follow again wherever they were.
 * @param paused the log's end is not the newest content (a conversation shown around an older message):
 *   nothing is followed until it is.
 */
export function useFollowBottom(
  scroller: RefObject<HTMLElement | null>,
  contentKey: unknown,
  restartKey?: unknown,
  paused = false,
): FollowBottom {
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const following = useRef(true);
  const catchingUp = useRef(false);
  /**
   * Until then (a catch-up's first CATCH_UP_MS) a position that moved up is not taken for the player's scroll:
   * Chromium may read one a little short of the end while the next words are laid out. A gesture still lets go.
   */
  const settlingUntil = useRef(0);
  const lastTop = useRef(0);
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new WeakSet<Element>());
  const [hasNew, setHasNew] = useState(false);

  const jump = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    if (catchingUp.current && !prefersReducedMotion() && typeof element.scrollTo === "function") {
      // A smooth catch-up under way is sent on to the new bottom rather than cut short.
      element.scrollTo({ top: element.scrollHeight, behavior: "smooth" });
    } else {
      element.scrollTop = element.scrollHeight;
    }
    lastTop.current = element.scrollTop;
  }, [scroller]);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = () => {
      const top = element.scrollTop;
      if (distanceToBottom(element) <= AT_BOTTOM_PX) {
        following.current = true;
        catchingUp.current = false;
        setHasNew(false);
      } else if (top < lastTop.current - 1 && !catchingUp.current && !isSettling(settlingUntil)) {
        // The reader scrolled up: leave them where they are.
        following.current = false;
      }
      lastTop.current = top;
    };
    // A gesture upwards lets go at once: at 40 words a second the next words would otherwise pull the
    // log back down before the browser reports the player's first scroll.
    const letGo = () => {
      // Nothing above to scroll to: the gesture moves nothing, and no scroll would follow it again.
      if (element.scrollTop <= 0) return;
      following.current = false;
      catchingUp.current = false;
      settlingUntil.current = 0;
    };
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0) letGo();
    };
    let touchY: number | null = null;
    const onTouchStart = (event: TouchEvent) => {
      touchY = event.touches[0]?.clientY ?? null;
    };
    const onTouchMove = (event: TouchEvent) => {
      const y = event.touches[0]?.clientY;
      // A finger moving down the screen scrolls the log up.
      if (touchY !== null && y !== undefined && y > touchY + 4) letGo();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (["ArrowUp", "PageUp", "Home"].includes(event.key)) letGo();
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    element.addEventListener("wheel", onWheel, { passive: true });
    element.addEventListener("touchstart", onTouchStart, { passive: true });
    element.addEventListener("touchmove", onTouchMove, { passive: true });
    element.addEventListener("keydown", onKeyDown);
    // Growth that is not new content (a picture loading, the log's own height changing) is followed too.
    if (typeof ResizeObserver === "function") {
      observer.current = new ResizeObserver(() => {
        if (following.current && !pausedRef.current) jump();
      });
      observed.current = new WeakSet();
      observeContent(observer.current, observed.current, element);
    }
    return () => {
      element.removeEventListener("scroll", onScroll);
      element.removeEventListener("wheel", onWheel);
      element.removeEventListener("touchstart", onTouchStart);
      element.removeEventListener("touchmove", onTouchMove);
      element.removeEventListener("keydown", onKeyDown);
      observer.current?.disconnect();
      observer.current = null;
    };
  }, [scroller, jump]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the reader acts, not on every render
  useLayoutEffect(() => {
    if (pausedRef.current) return;
    following.current = true;
    catchingUp.current = false;
    settlingUntil.current = 0;
    setHasNew(false);
    jump();
  }, [restartKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the content changes
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) {
      observeContent(observer.current, observed.current, element);
      // Moved up since the log last followed, and the browser has not said so yet: the player did that.
      if (!catchingUp.current && !isSettling(settlingUntil) && element.scrollTop < lastTop.current - 1)
        following.current = false;
    }
    if (pausedRef.current) following.current = false;
    else if (following.current) jump();
    else setHasNew(true);
  }, [contentKey]);

  const catchUp = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    following.current = true;
    if (distanceToBottom(element) <= AT_BOTTOM_PX) {
      setHasNew(false);
      jump();
      return;
    }
    catchingUp.current = true;
    settlingUntil.current = performance.now() + CATCH_UP_MS;
    jump();
    // Reduced motion jumps at once; a smooth scroll that is interrupted or lands short still ends.
    window.setTimeout(() => {
      if (!catchingUp.current) return;
      catchingUp.current = false;
      if (following.current) {
        jump();
        setHasNew(false);
      }
    }, CATCH_UP_MS);
  }, [scroller, jump]);

  return { hasNew, catchUp };
}
