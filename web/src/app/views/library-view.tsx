import { Images } from "lucide-react";
import { PlaceholderPanel } from "../../components/placeholder-panel";

export function LibraryView() {
  return (
    <PlaceholderPanel
      icon={Images}
      title="Your Media Gallery"
      subtitle="All your generated images and videos, newest first"
    />
  );
}
