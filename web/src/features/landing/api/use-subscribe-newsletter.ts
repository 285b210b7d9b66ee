// The mutation behind the "Get Early Access" box. The request code (zod schemas, API client: about a
// fifth of the landing's JavaScript) is fetched on first use, which keeps the landing inside its
// 120 KB initial-JavaScript budget; preloadNewsletter() warms it as soon as the visitor reaches for the box.
import type { NewsletterSignupResponse } from "@storyverse/contract/newsletter";
import { useMutation } from "@tanstack/react-query";
import { ApiError, NETWORK_ERROR_MESSAGE } from "../../../lib/api-errors";

const loadModule = () => import("./subscribe-newsletter");

export function preloadNewsletter(): void {
  loadModule().catch(() => {
    // A failed preload is retried by the submit itself.
  });
}

async function subscribe(email: string): Promise<NewsletterSignupResponse> {
  let module: Awaited<ReturnType<typeof loadModule>>;
  try {
    module = await loadModule();
  } catch {
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  return module.subscribeNewsletter(email);
}

export function useSubscribeNewsletter() {
  return useMutation<NewsletterSignupResponse, Error, string>({ mutationFn: subscribe });
}
