// Buying credits from a story comes back to it (issue #43, decision 0142): the composer keeps its draft for
// the tab (session storage, by story), and leaving a story for the Credits page remembers the story, so a
// paid return from the checkout opens it again with the words still in the box. Session storage survives
// the trip to the payment page and back in the same tab; where it is unavailable nothing is kept and the
// return opens the Credits page as before.

const RETURN_KEY = "storyverse:credits-return";
const DRAFT_PREFIX = "storyverse:draft:";
/** A remembered story is forgotten after this long: a purchase finished much later starts on the Credits page. */
export const CREDITS_RETURN_MAX_AGE_MS = 2 * 60 * 60 * 1000;

function tabStorage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function safely(action: (storage: Storage) => void): void {
  const storage = tabStorage();
  if (!storage) return;
  try {
    action(storage);
  } catch {
    // Full or refused storage: the draft and the way back are simply not kept.
  }
}

/** The player leaves this story for the Credits page: a paid return comes back to it. */
export function rememberCreditsReturn(storyId: string, now = Date.now()): void {
  safely((storage) => storage.setItem(RETURN_KEY, JSON.stringify({ storyId, at: now })));
}

/** The story to go back to after a paid return (taken once), or null. */
export function takeCreditsReturn(now = Date.now()): string | null {
  const storage = tabStorage();
  const raw = storage?.getItem(RETURN_KEY) ?? null;
  safely((s) => s.removeItem(RETURN_KEY));
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { storyId?: unknown; at?: unknown };
    if (typeof value.storyId !== "string" || typeof value.at !== "number") return null;
    return now - value.at <= CREDITS_RETURN_MAX_AGE_MS ? value.storyId : null;
  } catch {
    return null;
  }
}

/** The words typed in a story's composer and not yet sent ("" when none). */
export function readDraft(storyId: string): string {
  return tabStorage()?.getItem(`${DRAFT_PREFIX}${storyId}`) ?? "";
}

/** Keeps (or, when empty, forgets) a story's composer draft for this tab. */
export function writeDraft(storyId: string, text: string): void {
  safely((storage) =>
    text
      ? storage.setItem(`${DRAFT_PREFIX}${storyId}`, text)
      : storage.removeItem(`${DRAFT_PREFIX}${storyId}`),
  );
}
