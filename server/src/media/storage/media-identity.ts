// What identifies a piece of media in a signed link: its path, without the origin and without the query
// (expiry and signature). Two signed links to the same media made in different expiry windows differ in
// their query, so tests (and anything else that asks "is this the same media?") compare identities, never
// whole signed URLs.
export function mediaIdentity(url: string): string {
  const parsed = new URL(url, "http://media.invalid");
  return decodeURIComponent(parsed.pathname);
}

/** True when two links, signed at any times, point at the same media. */
export function sameMedia(a: string, b: string): boolean {
  return mediaIdentity(a) === mediaIdentity(b);
}
