import { YourDataCard } from "../../features/accounts/components/your-data-card";
import { CreditsPage } from "../../features/credits/components/credits-page";

export function SubscriptionView() {
  return <CreditsPage footer={<YourDataCard />} />;
}
