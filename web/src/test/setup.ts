// Shared set-up for the web unit tests (jsdom).
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, "", "/");
  document.documentElement.className = "";
  // jsdom does not implement scrolling.
  vi.spyOn(window, "scrollTo").mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
});
