// The one typed gateway to localStorage. Every key the product persists is declared here with the
// exact key name, its value type and how it is written, so nothing else touches raw storage.
// Reads never throw: storage can be disabled (private windows, strict settings) or hold stale junk
// from an older build, and both simply read as "nothing stored".
import { type ChatMode, chatModeSchema, MAX_BATCH_SIZE, MIN_BATCH_SIZE } from "@storyverse/contract/chat";
import { ASPECT_RATIOS, type AspectRatio } from "@storyverse/contract/generation-settings";
import { SPEECH_RATES } from "@storyverse/contract/voice";

export type Theme = "light" | "dark";

/** The desktop scene canvas's width, in percent of the story view: never more than the story text's half. */
export const SCENE_WIDTH_MIN = 25;
export const SCENE_WIDTH_MAX = 50;
export const SCENE_WIDTH_DEFAULT = 40;
export type SidebarState = "collapsed" | "expanded";
/** The Studio's two modes: the prompt advisor (chat) or image batches. */
export type StudioMode = "chat" | "image";

export interface StoredUser {
  id: string;
  email: string;
  username: string;
  credits_remaining: number;
}

export interface StoryMediaState {
  image: string | null;
  video: string | null;
  isVideoMode: boolean;
  lastUpdated: string;
}

export interface StorageSchema {
  theme: Theme;
  /** The interface language chosen in this browser (decision 0155): a locale, or a test pseudo-language. */
  language: string;
  /** The last view shown; restored on reload only for the signed-in views (see shared/navigation.ts). */
  currentView: string;
  activeNavItem: string;
  sidebarState: SidebarState;
  chatMode: ChatMode;
  /** On a phone, whether the scene canvas above a chat is folded to a slim strip. */
  sceneCanvas: "expanded" | "collapsed";
  /** On a desktop, the scene canvas's share of the story view's width, in percent (the story text has the rest). */
  sceneWidth: number;
  /** Where a story's pictures show: once (on the open canvas, in the story when it is folded) or in both places. */
  scenePictures: "once" | "both";
  /** The Studio's own mode, apart from the story chat's (which also has video). */
  studioMode: StudioMode;
  batchSize: number;
  /** The Studio's picture shape (decision 0149), one of ASPECT_RATIOS. */
  studioShape: AspectRatio;
  /** The narration player's playback speed, one of SPEECH_RATES. */
  speechRate: number;
  story_media_states: Record<string, StoryMediaState>;
  token: string;
  user: StoredUser;
  /** The session began at the OIDC provider: logout ends the provider's too (decision 0147). */
  signedInWith: "oidc";
  /** The Studio's conversation, owned by the Studio feature; cleared at logout with the rest of the session. */
  studio_messages: unknown[];
}

export type StorageKey = keyof StorageSchema;

interface Codec<T> {
  parse(raw: string): T | null;
  serialize(value: T): string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function oneOf<const T extends string>(...allowed: T[]): Codec<T> {
  return {
    parse: (raw) => (allowed.includes(raw as T) ? (raw as T) : null),
    serialize: (value) => value,
  };
}

const plainString: Codec<string> = {
  parse: (raw) => (raw === "" ? null : raw),
  serialize: (value) => value,
};

function isStoryMediaState(value: unknown): value is StoryMediaState {
  return (
    isRecord(value) &&
    (value.image === null || typeof value.image === "string") &&
    (value.video === null || typeof value.video === "string") &&
    typeof value.isVideoMode === "boolean" &&
    typeof value.lastUpdated === "string"
  );
}

function isStoredUser(value: unknown): value is StoredUser {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    typeof value.email === "string" &&
    typeof value.username === "string" &&
    typeof value.credits_remaining === "number"
  );
}

const codecs: { [K in StorageKey]: Codec<StorageSchema[K]> } = {
  theme: oneOf("light", "dark"),
  language: oneOf("en", "de", "es", "en-XA", "ar-XB"),
  currentView: plainString,
  activeNavItem: plainString,
  sidebarState: oneOf("collapsed", "expanded"),
  chatMode: oneOf(...chatModeSchema.options),
  studioMode: oneOf("chat", "image"),
  studioShape: oneOf(...ASPECT_RATIOS),
  sceneCanvas: oneOf("expanded", "collapsed"),
  scenePictures: oneOf("once", "both"),
  sceneWidth: {
    parse: (raw) => {
      const n = Number(raw);
      return Number.isFinite(n) && n >= SCENE_WIDTH_MIN && n <= SCENE_WIDTH_MAX ? n : null;
    },
    serialize: (value) => String(value),
  },
  batchSize: {
    parse: (raw) => {
      const n = Number(raw);
      return Number.isInteger(n) && n >= MIN_BATCH_SIZE && n <= MAX_BATCH_SIZE ? n : null;
    },
    serialize: (value) => String(value),
  },
  speechRate: {
    parse: (raw) => {
      const n = Number(raw);
      return (SPEECH_RATES as readonly number[]).includes(n) ? n : null;
    },
    serialize: (value) => String(value),
  },
  story_media_states: {
    parse: (raw) => {
      const value = parseJson(raw);
      if (!isRecord(value)) return null;
      // Keep the valid entries: one corrupted story must not wipe the others.
      const states: Record<string, StoryMediaState> = {};
      for (const [storyId, state] of Object.entries(value)) {
        if (isStoryMediaState(state)) states[storyId] = state;
      }
      return states;
    },
    serialize: (value) => JSON.stringify(value),
  },
  token: plainString,
  signedInWith: oneOf("oidc"),
  user: {
    parse: (raw) => {
      const value = parseJson(raw);
      return isStoredUser(value) ? value : null;
    },
    serialize: (value) => JSON.stringify(value),
  },
  studio_messages: {
    parse: (raw) => {
      const value = parseJson(raw);
      return Array.isArray(value) ? value : null;
    },
    serialize: (value) => JSON.stringify(value),
  },
};

function backend(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The stored value, or null when absent, unreadable or not of the key's type. */
export function readStorage<K extends StorageKey>(key: K): StorageSchema[K] | null {
  try {
    const raw = backend()?.getItem(key);
    return raw == null ? null : codecs[key].parse(raw);
  } catch {
    return null;
  }
}

/** Writes a value; returns false when storage is unavailable or full (the app keeps working). */
export function writeStorage<K extends StorageKey>(key: K, value: StorageSchema[K]): boolean {
  try {
    const store = backend();
    if (!store) return false;
    store.setItem(key, codecs[key].serialize(value));
    return true;
  } catch {
    return false;
  }
}

export function removeStorage(key: StorageKey): void {
  try {
    backend()?.removeItem(key);
  } catch {
    // Nothing to do: an unavailable storage holds nothing to remove.
  }
}

// Session storage: the one value kept for the browser tab only, the account that
// still has to verify its email. It outlives a reload but not the tab, like the sign-up it belongs to.

export interface PendingUser {
  email: string;
  username: string;
  credits_remaining: number;
}

export const PENDING_USER_KEY = "pendingUser";

function sessionBackend(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function isPendingUser(value: unknown): value is PendingUser {
  return (
    isRecord(value) &&
    typeof value.email === "string" &&
    typeof value.username === "string" &&
    typeof value.credits_remaining === "number"
  );
}

export function readPendingUser(): PendingUser | null {
  try {
    const raw = sessionBackend()?.getItem(PENDING_USER_KEY);
    if (raw == null) return null;
    const value = parseJson(raw);
    return isPendingUser(value) ? value : null;
  } catch {
    return null;
  }
}

export function writePendingUser(user: PendingUser): void {
  try {
    const { email, username, credits_remaining } = user;
    sessionBackend()?.setItem(PENDING_USER_KEY, JSON.stringify({ email, username, credits_remaining }));
  } catch {
    // Without session storage the verification screen simply has no address to show.
  }
}

export function clearPendingUser(): void {
  try {
    sessionBackend()?.removeItem(PENDING_USER_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

// The query string the payment page sent the browser back with, kept for this
// tab until the signed-in app has handled it, so a visitor who has to sign in first still gets it handled
// right after login. It leaves the address bar at once, so a reload never handles it twice.

export const PAYMENT_RETURN_KEY = "paymentReturn";

export function readPaymentReturnQuery(): string | null {
  try {
    const raw = sessionBackend()?.getItem(PAYMENT_RETURN_KEY);
    return raw == null || raw === "" ? null : raw;
  } catch {
    return null;
  }
}

export function writePaymentReturnQuery(query: string): void {
  try {
    sessionBackend()?.setItem(PAYMENT_RETURN_KEY, query);
  } catch {
    // Without session storage the return is handled only if the user is already signed in.
  }
}

export function clearPaymentReturnQuery(): void {
  try {
    sessionBackend()?.removeItem(PAYMENT_RETURN_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** The address a mailed link just proved (verified email, new password): the sign-in opens with it. */
export const SIGN_IN_EMAIL_KEY = "signInEmail";

export function writeSignInEmail(email: string): void {
  try {
    sessionBackend()?.setItem(SIGN_IN_EMAIL_KEY, email);
  } catch {
    // Without session storage the sign-in simply starts empty.
  }
}

const REGISTER_INTENT_KEY = "openRegister";

/** The next auth view opens on the register form (a "create your first story" action on the landing page). */
export function requestRegisterForm(): void {
  try {
    sessionBackend()?.setItem(REGISTER_INTENT_KEY, "1");
  } catch {
    // Without session storage the auth view opens on sign-in, with its "Create one" switch.
  }
}

/** Whether the auth view should open on the register form, read once. */
export function takeRegisterRequest(): boolean {
  try {
    const wanted = sessionBackend()?.getItem(REGISTER_INTENT_KEY) === "1";
    sessionBackend()?.removeItem(REGISTER_INTENT_KEY);
    return wanted;
  } catch {
    return false;
  }
}

/** The address to fill the sign-in with, read once: a later visit to the sign-in starts empty. */
export function takeSignInEmail(): string | null {
  try {
    const email = sessionBackend()?.getItem(SIGN_IN_EMAIL_KEY) ?? null;
    sessionBackend()?.removeItem(SIGN_IN_EMAIL_KEY);
    return email;
  } catch {
    return null;
  }
}
