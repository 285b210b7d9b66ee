import { MessageCircle } from "lucide-react";
import { PlaceholderPanel } from "../../components/placeholder-panel";

export function ChatView() {
  return (
    <PlaceholderPanel
      icon={MessageCircle}
      title="Start Your Adventure"
      subtitle="Type a message below to begin your story!"
    />
  );
}
