import { CreditsPage } from "../../features/credits/components/credits-page";

export function SubscriptionView() {
  return <CreditsPage />;
}
