import { YourDataCard } from "../../features/accounts/components/your-data-card";
import { CreditsPage } from "../../features/credits/components/credits-page";
import { PersonasCard } from "../../features/personas/personas-card";

export function SubscriptionView() {
  return (
    <CreditsPage
      footer={
        <>
          <PersonasCard />
          <YourDataCard />
        </>
      }
    />
  );
}
