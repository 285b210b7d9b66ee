// When a message was written, as the conversations show it: the Studio's clock time beside the sender, or
// the story chat's full date and time in a tooltip, in the interface's language. A timestamp that cannot be
// read shows nothing.
import { formatDate } from "../i18n/format";

export type MessageTimeStyle = "clock" | "full";

export function formatMessageTime(iso: string, style: MessageTimeStyle): string {
  return style === "clock"
    ? formatDate(iso, { hour: "numeric", minute: "2-digit" })
    : formatDate(iso, {
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        second: "2-digit",
      });
}
