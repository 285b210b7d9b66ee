// Security headers. The app itself runs under a strict CSP: only our own scripts, styles, fonts and images.
import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";

type Directives = Record<string, string[] | null>;

export const appContentSecurityPolicy: Directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:", "blob:"],
  mediaSrc: ["'self'", "blob:"],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The app's policy; media may also come from the S3 store's origin (presigned links). */
export function appDirectives(mediaOrigin?: string): Directives {
  if (!mediaOrigin) return appContentSecurityPolicy;
  return {
    ...appContentSecurityPolicy,
    imgSrc: [...(appContentSecurityPolicy.imgSrc ?? []), mediaOrigin],
    mediaSrc: [...(appContentSecurityPolicy.mediaSrc ?? []), mediaOrigin],
  };
}

/**
 * The app's policy as a header value, with a per-response nonce admitted for <style> elements: dialog and
 * menu libraries inject one, and the nonce lets exactly those in while inline styles stay refused.
 */
export function appCspHeader(styleNonce: string, mediaOrigin?: string): string {
  return Object.entries(appDirectives(mediaOrigin))
    .filter((entry): entry is [string, string[]] => entry[1] !== null)
    .map(([name, values]) => {
      const list = name === "styleSrc" ? [...values, `'nonce-${styleNonce}'`] : values;
      return `${kebab(name)} ${list.join(" ")}`;
    })
    .join("; ");
}

/**
 * Browser features the app may use, each to its own origin only, and every other powerful feature refused
 * (also to anything framed): the microphone for voice input (getUserMedia), fullscreen and picture-in-picture
 * from a clip's own controls, autoplay for the muted clips and the narration, clipboard-write for copying a
 * share link. Only feature names Chromium has long known are listed: an unknown one is a console error on
 * every page (the browser tier fails on those).
 */
const permissionsPolicy = [
  "microphone=(self)",
  "fullscreen=(self)",
  "picture-in-picture=(self)",
  "autoplay=(self)",
  "clipboard-write=(self)",
  "camera=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "hid=()",
  "midi=()",
  "accelerometer=()",
  "gyroscope=()",
  "magnetometer=()",
  "display-capture=()",
  "screen-wake-lock=()",
  "xr-spatial-tracking=()",
  "publickey-credentials-get=()",
  "clipboard-read=()",
].join(", ");

/** Swagger UI sets inline styles from its bundle; only the docs pages get this looser policy. */
export const docsContentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

/**
 * helmet's headers, worked out once: @fastify/helmet rebuilds its middleware on every request, a measured
 * share of a hot read's CPU (docs/benchmarks.md). A throwaway instance with the plugin answers one request and
 * its headers are what every response then gets, set on the raw response in onRequest as the plugin sets them
 * (a route may still replace one, as the page routes do with their nonce'd policy).
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get("/", async () => "");
  const res = await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  const ownHeaders = new Set(["content-type", "content-length", "date", "connection", "keep-alive"]);
  return Object.entries(res.headers)
    .filter(([name]) => !ownHeaders.has(name))
    .map(([name, value]) => [name, String(value)]);
}

export async function installSecurityHeaders(
  app: FastifyInstance,
  production: boolean,
  mediaOrigin?: string,
): Promise<void> {
  const headers = await helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: appDirectives(mediaOrigin) },
    // HSTS only makes sense behind TLS, which production deployments terminate in front of us.
    hsts: production ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  headers.push(["permissions-policy", permissionsPolicy]);
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
