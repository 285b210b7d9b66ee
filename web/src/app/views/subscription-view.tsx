import { CreditCard } from "lucide-react";
import { PlaceholderPanel } from "../../components/placeholder-panel";

export function SubscriptionView() {
  return (
    <PlaceholderPanel
      icon={CreditCard}
      title="Manage Credits"
      subtitle="Your credits, this month's activity and top-ups"
    />
  );
}
