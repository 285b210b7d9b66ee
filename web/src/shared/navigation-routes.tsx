// The app's routes, in TanStack Router: one route per view, each named by its view (staticData.view), the open
// story's id in its path (/stories/$storyId), and the verification and reset links' `token` as typed search.
// The root's beforeLoad applies the spec's rules from navigation.ts to every address, at load and after back or
// forward: a signed-out visitor of a signed-in view is sent to the sign-in, "/" or an unknown path while signed
// in restores the remembered view, and the address bar is made canonical (with a replace, so no history
// entry). The routes carry no components here: the app attaches its lazily loaded views to them
// (app/route-views.tsx), so this tree may be used by anything that only needs to move between views.
import {
  type AnyRoute,
  createBrowserHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  type RouterHistory,
  redirect,
} from "@tanstack/react-router";
import { readStorage } from "../lib/storage";
import { canonicalUrl, resolveRoute } from "./navigation";
import type { ViewName } from "./views";

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The view this route shows (the stored `currentView` value). */
    view?: ViewName;
  }
}

export interface RouterContext {
  /** Read at each navigation: signing in or out changes what an address may show. */
  isAuthenticated: () => boolean;
}

/** The single-use links' token (/verify-email?token=..., /forgot-password?token=...). */
interface TokenSearch {
  token?: string;
}

function tokenSearch(search: Record<string, unknown>): TokenSearch {
  const token = search.token;
  // The router reads query values as JSON where it can: a token of digits comes back as a number.
  if (typeof token === "string" && token !== "") return { token };
  if (typeof token === "number") return { token: String(token) };
  return {};
}

function addressOf(publicHref: string): Pick<Location, "pathname" | "search" | "hash"> {
  const url = new URL(publicHref, "http://storyverse.invalid");
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  beforeLoad: ({ location, context }) => {
    const address = addressOf(location.publicHref);
    const route = resolveRoute({
      pathname: address.pathname,
      isAuthenticated: context.isAuthenticated(),
      storedView: readStorage("currentView"),
    });
    const url = canonicalUrl(route, address);
    if (url !== `${address.pathname}${address.search}${address.hash}`) {
      throw redirect({ href: url, replace: true });
    }
  },
});

function viewRoute<const P extends string>(path: P, view: ViewName) {
  return createRoute({ getParentRoute: () => rootRoute, path, staticData: { view } });
}

export const landingRoute = viewRoute("/", "landing");
export const authRoute = viewRoute("/auth", "auth");
export const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/verify-email",
  staticData: { view: "email-verification" },
  validateSearch: tokenSearch,
});
export const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/forgot-password",
  staticData: { view: "forgot-password" },
  validateSearch: tokenSearch,
});
export const storiesRoute = viewRoute("/stories", "stories");
export const storyRoute = viewRoute("/stories/$storyId", "story-interface");
export const studioRoute = viewRoute("/studio", "studio");
export const chatRoute = viewRoute("/chat", "chat");
export const libraryRoute = viewRoute("/library", "library");
export const subscriptionRoute = viewRoute("/subscription", "subscription");
export const newsRoute = viewRoute("/news", "news");
export const adminRoute = viewRoute("/admin", "admin");

/** Each view's route, for the app to attach the view's component to. */
export const VIEW_ROUTES = {
  landing: landingRoute,
  auth: authRoute,
  "email-verification": verifyEmailRoute,
  "forgot-password": forgotPasswordRoute,
  stories: storiesRoute,
  "story-interface": storyRoute,
  studio: studioRoute,
  chat: chatRoute,
  library: libraryRoute,
  subscription: subscriptionRoute,
  news: newsRoute,
  admin: adminRoute,
} satisfies Record<ViewName, AnyRoute>;

const routeTree = rootRoute.addChildren([
  landingRoute,
  authRoute,
  verifyEmailRoute,
  forgotPasswordRoute,
  storiesRoute,
  storyRoute,
  studioRoute,
  chatRoute,
  libraryRoute,
  subscriptionRoute,
  newsRoute,
  adminRoute,
]);

export function createAppRouter(context: RouterContext, history: RouterHistory = createBrowserHistory()) {
  return createRouter({
    routeTree,
    history,
    context,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}
