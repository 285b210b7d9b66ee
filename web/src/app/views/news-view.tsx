import { Newspaper } from "lucide-react";
import { PlaceholderPanel } from "../../components/placeholder-panel";

export function NewsView() {
  return (
    <PlaceholderPanel
      icon={Newspaper}
      title="Updates & News"
      subtitle="What's new in Storyverse, updated weekly"
    />
  );
}
