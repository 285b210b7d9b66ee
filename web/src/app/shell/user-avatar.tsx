import type { StoredUser } from "../../lib/storage";

/** The avatar shows the first letter of the email or, without one, of the username. */
export function avatarLetter(user: Pick<StoredUser, "email" | "username"> | null): string {
  const source = user?.email?.trim() || user?.username?.trim() || "?";
  return source.charAt(0).toUpperCase();
}

export function UserAvatar({ letter, className = "size-9 text-sm" }: { letter: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`bg-primary-gradient grid shrink-0 place-items-center rounded-full font-semibold text-white shadow-[0_4px_12px_-4px_rgb(124_58_237/0.7)] ${className}`}
    >
      {letter}
    </span>
  );
}
