// Placeholder for the auth screen: sign in and register arrive with accounts in a later issue.
import { Sparkles } from "lucide-react";
import { AccountScreen } from "../../features/accounts/components/account-screen";
import { useView } from "../view-provider";

export function AuthView() {
  const { navigate } = useView();
  return (
    <AccountScreen
      title="Welcome to Storyverse"
      description="Sign in and registration open in the next release. Every new account starts with 15 free credits."
      onBackToHome={() => navigate("landing")}
    >
      <p className="mt-6 flex items-start gap-3 rounded-2xl bg-accent-soft p-4 text-sm leading-6 text-accent-ink">
        <Sparkles aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        Leave your email in the “Get Early Access” box on the home page and we will tell you the moment
        accounts open.
      </p>
      <button
        type="button"
        className="mt-6 rounded text-sm font-medium text-accent-ink hover:underline"
        onClick={() => navigate("forgot-password")}
      >
        Forgot password?
      </button>
    </AccountScreen>
  );
}
