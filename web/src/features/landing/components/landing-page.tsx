// The landing page: what anonymous visitors see first. Loaded eagerly, so it is the page the
// 120 KB (gzip) initial-JavaScript budget is about.
import { useTranslation } from "react-i18next";
import { requestRegisterForm } from "../../../lib/storage";
import { CreateSection } from "./create-section";
import { FeaturesSection } from "./features-section";
import { GallerySection } from "./gallery-section";
import { HeroSection } from "./hero-section";
import { LandingFooter } from "./landing-footer";
import { LandingHeader } from "./landing-header";
import { StudioSection } from "./studio-section";

export function LandingPage({ onGetStarted }: { onGetStarted: () => void }) {
  const { t } = useTranslation("landing");
  // "Create your first story" is for newcomers: it opens the register form, not sign-in.
  const onCreateAccount = () => {
    requestRegisterForm();
    onGetStarted();
  };
  return (
    <div className="relative min-h-dvh overflow-x-clip bg-canvas text-ink">
      <a
        href="#main"
        className="sr-only z-[60] rounded-xl bg-surface px-4 py-3 font-semibold shadow-lifted focus:not-sr-only focus:fixed focus:top-4 focus:inset-s-4"
      >
        {t("skipToContent")}
      </a>
      <LandingHeader onGetStarted={onGetStarted} />
      <main id="main" tabIndex={-1} className="outline-none">
        <HeroSection onCreateAccount={onCreateAccount} />
        <FeaturesSection />
        <StudioSection onGetStarted={onGetStarted} />
        <CreateSection />
        <GallerySection />
      </main>
      <LandingFooter onCreateAccount={onCreateAccount} />
    </div>
  );
}
