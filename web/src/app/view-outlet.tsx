// Renders the current view. Each view is its route's component (shared/navigation-routes.tsx), attached here:
// the landing page is bundled with the entry (it is the first thing anonymous visitors see); every other view
// is its own lazily loaded chunk, which the router loads before it moves, so the current screen stays until the
// next is ready. Signed-in views sit inside the app shell (top bar, sidebar), itself a chunk of its own that
// stays mounted while the views change.
import {
  type AnyRoute,
  type ErrorComponentProps,
  lazyRouteComponent,
  Match,
  rootRouteId,
  useRouterState,
} from "@tanstack/react-router";
import { lazy, type ReactNode, Suspense } from "react";
import { ErrorBoundary } from "../components/error-boundary";
import { ViewLoading } from "../components/view-loading";
import { LandingPage } from "../features/landing/components/landing-page";
import { useAuth } from "../shared/auth";
import { VIEW_ROUTES } from "../shared/navigation-routes";
import { useView } from "../shared/view-provider";
import { isViewName, requiresAuth, type ViewName } from "../shared/views";
import { lazyView, withTimeout } from "./lazy-view";

function LandingView() {
  const { navigate } = useView();
  return <LandingPage onGetStarted={() => navigate("auth")} />;
}

/** Rethrows the router's error inside the app's boundary, which offers a reload. */
function Rethrow({ error }: { error: unknown }): ReactNode {
  throw error;
}

const VIEW_MODULES = {
  auth: () => lazyRouteComponent(() => withTimeout(() => import("./views/auth-view")), "AuthView"),
  "email-verification": () =>
    lazyRouteComponent(
      () => withTimeout(() => import("./views/email-verification-view")),
      "EmailVerificationView",
    ),
  "forgot-password": () =>
    lazyRouteComponent(() => withTimeout(() => import("./views/forgot-password-view")), "ForgotPasswordView"),
  stories: () => lazyRouteComponent(() => withTimeout(() => import("./views/stories-view")), "StoriesView"),
  "story-interface": () =>
    lazyRouteComponent(() => withTimeout(() => import("./views/story-interface-view")), "StoryInterfaceView"),
  studio: () => lazyRouteComponent(() => withTimeout(() => import("./views/studio-view")), "StudioView"),
  chat: () => lazyRouteComponent(() => withTimeout(() => import("./views/chat-view")), "ChatView"),
  library: () => lazyRouteComponent(() => withTimeout(() => import("./views/library-view")), "LibraryView"),
  subscription: () =>
    lazyRouteComponent(() => withTimeout(() => import("./views/subscription-view")), "SubscriptionView"),
  news: () => lazyRouteComponent(() => withTimeout(() => import("./views/news-view")), "NewsView"),
  admin: () => lazyRouteComponent(() => withTimeout(() => import("./views/admin-view")), "AdminView"),
} satisfies Record<Exclude<ViewName, "landing">, () => unknown>;

function attach(view: ViewName, route: AnyRoute) {
  const inShell = requiresAuth(view);
  route.update({
    component: view === "landing" ? LandingView : VIEW_MODULES[view](),
    pendingComponent: () => <ViewLoading inShell={inShell} />,
    errorComponent: ({ error }: ErrorComponentProps) => (
      <ErrorBoundary inShell={inShell}>
        <Rethrow error={error} />
      </ErrorBoundary>
    ),
  });
}

for (const [view, route] of Object.entries(VIEW_ROUTES)) attach(view as ViewName, route);

const UnknownView = lazyView(() => import("./views/unknown-view"), "UnknownView");
const AppShell = lazy(() =>
  withTimeout(() => import("./shell/app-shell")).then((module) => ({ default: module.AppShell })),
);

/**
 * The matched view's route, rendered with its pending and error screens. Before the router's first load has
 * matched the address, the landing page (bundled, so nothing to wait for) is drawn at once, other views load.
 */
function RoutedView({ view, inShell }: { view: ViewName; inShell: boolean }) {
  const routeId = useRouterState({ select: (s) => s.matches.at(-1)?.routeId });
  if (!routeId || routeId === rootRouteId) {
    return view === "landing" ? <LandingView /> : <ViewLoading inShell={inShell} />;
  }
  return <Match routeId={routeId} />;
}

export function ViewOutlet() {
  const { view } = useView();
  const { isAuthenticated } = useAuth();
  if (!isViewName(view)) {
    return (
      <ErrorBoundary key={view}>
        <Suspense fallback={<ViewLoading />}>
          <UnknownView />
        </Suspense>
      </ErrorBoundary>
    );
  }
  if (!requiresAuth(view)) return <RoutedView view={view} inShell={false} />;
  // Between signing out and the router's move to the landing page, nothing of the signed-in app is drawn.
  if (!isAuthenticated) return <ViewLoading />;
  return (
    <ErrorBoundary>
      <Suspense fallback={<ViewLoading />}>
        <AppShell>
          <RoutedView view={view} inShell />
        </AppShell>
      </Suspense>
    </ErrorBoundary>
  );
}
