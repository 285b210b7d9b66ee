// How a long conversation is drawn (decision 0130), in one place for the story page's and the main chat's
// message list and a shared story's public page (decision 0138).

/**
 * Longer conversations are windowed: only the rows near the viewport are in the page. A short one is drawn
 * whole (a few dozen rows cost less than measuring them).
 */
export const WINDOWED_FROM = 40;
/** Within this distance of the top (or of the end, after a jump) the next page is read. */
export const LOAD_MARGIN_PX = 800;
