import { MessagesSquare } from "lucide-react";
import { PlaceholderPanel } from "../../components/placeholder-panel";

export function StoryInterfaceView() {
  return (
    <PlaceholderPanel
      icon={MessagesSquare}
      title="Start Your Adventure"
      subtitle="Type a message below to begin your story!"
    />
  );
}
