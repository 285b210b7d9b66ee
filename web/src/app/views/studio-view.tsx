import { WandSparkles } from "lucide-react";
import { PlaceholderPanel } from "../../components/placeholder-panel";

export function StudioView() {
  return (
    <PlaceholderPanel icon={WandSparkles} title="Studio" subtitle="Start creating amazing images with AI" />
  );
}
