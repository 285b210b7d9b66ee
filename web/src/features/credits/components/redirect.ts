// Leaving the app for the payment provider (checkout, billing portal). Only http(s) addresses are
// followed: a server answer must never be able to run script through a javascript: URL.

/** The address to go to, or null when it is not an http(s) URL. */
export function safeRedirectUrl(url: string, base: string = window.location.origin): string | null {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Goes to `url`. `onReturn` runs if the browser brings this page back from its back-forward cache (the
 * user pressed Back on the provider's page), so a button left busy can be used again.
 */
export function redirectTo(url: string, onReturn?: () => void): boolean {
  const safe = safeRedirectUrl(url);
  if (safe === null) return false;
  if (onReturn) {
    const restore = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      window.removeEventListener("pageshow", restore);
      onReturn();
    };
    window.addEventListener("pageshow", restore);
  }
  window.location.assign(safe);
  return true;
}
