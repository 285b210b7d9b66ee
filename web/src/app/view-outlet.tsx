// Renders the current view. The landing page is bundled with the entry (it is the first thing anonymous
// visitors see); every other view is its own lazily loaded chunk.
import { type ReactNode, Suspense } from "react";
import { ErrorBoundary } from "../components/error-boundary";
import { ViewLoading } from "../components/view-loading";
import { LandingPage } from "../features/landing/components/landing-page";
import { useAuth } from "./auth-provider";
import { lazyView } from "./lazy-view";
import { useView } from "./view-provider";
import { isViewName, requiresAuth } from "./views";

const AuthView = lazyView(() => import("./views/auth-view"), "AuthView");
const EmailVerificationView = lazyView(
  () => import("./views/email-verification-view"),
  "EmailVerificationView",
);
const ForgotPasswordView = lazyView(() => import("./views/forgot-password-view"), "ForgotPasswordView");
const StoriesView = lazyView(() => import("./views/stories-view"), "StoriesView");
const StoryInterfaceView = lazyView(() => import("./views/story-interface-view"), "StoryInterfaceView");
const StudioView = lazyView(() => import("./views/studio-view"), "StudioView");
const ChatView = lazyView(() => import("./views/chat-view"), "ChatView");
const LibraryView = lazyView(() => import("./views/library-view"), "LibraryView");
const SubscriptionView = lazyView(() => import("./views/subscription-view"), "SubscriptionView");
const NewsView = lazyView(() => import("./views/news-view"), "NewsView");
const UnknownView = lazyView(() => import("./views/unknown-view"), "UnknownView");

export function renderView(view: string, isAuthenticated: boolean, onGetStarted: () => void): ReactNode {
  // The gate for signed-in views: a signed-out visitor is asked to sign in instead.
  if (isViewName(view) && requiresAuth(view) && !isAuthenticated) return <AuthView />;
  switch (view) {
    case "landing":
      return <LandingPage onGetStarted={onGetStarted} />;
    case "auth":
      return <AuthView />;
    case "email-verification":
      return <EmailVerificationView />;
    case "forgot-password":
      return <ForgotPasswordView />;
    case "stories":
      return <StoriesView />;
    case "story-interface":
      return <StoryInterfaceView />;
    case "studio":
      return <StudioView />;
    case "chat":
      return <ChatView />;
    case "library":
      return <LibraryView />;
    case "subscription":
      return <SubscriptionView />;
    case "news":
      return <NewsView />;
    default:
      return <UnknownView />;
  }
}

export function ViewOutlet() {
  const { view, navigate } = useView();
  const { isAuthenticated } = useAuth();
  return (
    <ErrorBoundary key={view}>
      <Suspense fallback={<ViewLoading />}>
        {renderView(view, isAuthenticated, () => navigate("auth"))}
      </Suspense>
    </ErrorBoundary>
  );
}
