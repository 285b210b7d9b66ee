// Infinite scroll for a paged list (the story grid, the Gallery): the next page loads when the list's end comes
// within 400 px of the viewport, no nearer, since a page fetched before anyone scrolls is weight on the first
// screen. Give the returned ref to an element after the list's last item.
import { type RefObject, useEffect, useRef } from "react";

/** What a paged query (`useInfiniteQuery`) says about its next page. */
type Paged = { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };

export function useLoadMoreNearEnd<T extends Element = HTMLDivElement>({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
}: Paged): RefObject<T | null> {
  const sentinel = useRef<T>(null);
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasNextPage || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: "0px 0px 400px 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return sentinel;
}
