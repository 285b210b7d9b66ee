// A search box's words, once typing pauses: the story grid and the Gallery ask the server only then.
import { useEffect, useState } from "react";

/** A search is asked of the server once typing pauses this long. */
export const SEARCH_PAUSE_MS = 250;

/** `value`, once it has stayed the same for `ms`. */
export function useSettled(value: string, ms: number = SEARCH_PAUSE_MS): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
