// When a message was written, as the conversations show it: the Studio's clock time beside the sender, or
// the story chat's full date and time in a tooltip. A timestamp that cannot be read shows nothing.

const clockFormat = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });

export type MessageTimeStyle = "clock" | "full";

export function formatMessageTime(iso: string, style: MessageTimeStyle): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return style === "clock" ? clockFormat.format(date) : date.toLocaleString();
}
