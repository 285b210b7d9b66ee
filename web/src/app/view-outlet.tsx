// Renders the current view. The landing page is bundled with the entry (it is the first thing anonymous
// visitors see); every other view is its own lazily loaded chunk. Signed-in views sit inside the app
// shell (top bar, sidebar), itself a chunk of its own that stays mounted while the views change.
import { lazy, type ReactNode, Suspense } from "react";
import { ErrorBoundary } from "../components/error-boundary";
import { ViewLoading } from "../components/view-loading";
import { LandingPage } from "../features/landing/components/landing-page";
import { useAuth } from "../shared/auth";
import { useView } from "../shared/view-provider";
import { isViewName, requiresAuth } from "../shared/views";
import { lazyView, withTimeout } from "./lazy-view";

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
const AppShell = lazy(() =>
  withTimeout(() => import("./shell/app-shell")).then((module) => ({ default: module.AppShell })),
);

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
  const inShell = isAuthenticated && isViewName(view) && requiresAuth(view);
  // The Suspense boundary outlives view changes, so a move to a view whose chunk is still loading keeps
  // the current view on screen (a transition, see view-provider.tsx); the error boundary starts afresh
  // with every view.
  const content = (
    <Suspense fallback={<ViewLoading inShell={inShell} />}>
      <ErrorBoundary key={view} inShell={inShell}>
        {renderView(view, isAuthenticated, () => navigate("auth"))}
      </ErrorBoundary>
    </Suspense>
  );
  if (!inShell) return content;
  return (
    <ErrorBoundary>
      <Suspense fallback={<ViewLoading />}>
        <AppShell>{content}</AppShell>
      </Suspense>
    </ErrorBoundary>
  );
}
