import { BookOpenText } from "lucide-react";
import { PlaceholderPanel } from "../../components/placeholder-panel";

export function StoriesView() {
  return (
    <PlaceholderPanel
      icon={BookOpenText}
      title="Your Stories"
      subtitle="Manage your AI-powered story adventures"
    />
  );
}
