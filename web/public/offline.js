// The offline page's only script: the theme the player chose in the app (stored under "theme", applied before
// the page is drawn), "Try again" loading the address the player asked for, and the page loading that address
// again by itself as soon as the server answers (asked every 5 seconds, and at once when the device says it is
// back online: a server that is down while the device is online never sends that signal). A file of its own
// because the Content-Security-Policy allows no inline script.
try {
  const theme = localStorage.getItem("theme");
  if (theme === "dark" || theme === "light") document.documentElement.classList.add(theme);
} catch {
  // No storage: the system's preference decides.
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelector(".retry")?.setAttribute("href", window.location.href);
});

let asking = false;
async function tryServer() {
  if (asking) return;
  asking = true;
  try {
    const answer = await fetch("/api/health", { cache: "no-store" });
    if (answer.ok) window.location.reload();
  } catch {
    // Still unreachable: asked again shortly.
  } finally {
    asking = false;
  }
}
window.setInterval(tryServer, 5000);
window.addEventListener("online", tryServer);
