// A fake Stripe API (/v1) speaking Stripe's wire format (../shared/providers.md "Stripe"): form-encoded
// bodies with bracketed keys, Bearer secret keys, `{error: {type, message, param, code}}` errors, checkout
// sessions, their lookup and the billing portal. Tests play the customer with completeSession(), and play
// Stripe's webhook sender with signedEvent(), which signs exactly as Stripe does (t=...,v1=HMAC).
import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import {
  bearerToken,
  type ErrorShape,
  type FakeReply,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from "./fake-server";

export type FakeCheckoutSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  url: string | null;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  customer: string | null;
  customer_creation: string | null;
  success_url: string;
  cancel_url: string;
  line_items: unknown;
  livemode: false;
};

export type StripeFake = FakeServer & {
  secretKey: string;
  webhookSecret: string;
  /** Env for createTestApp: PAYMENT_PROVIDER=stripe pointed at this fake. */
  env: Record<string, string>;
  sessions: Map<string, FakeCheckoutSession>;
  customers: Set<string>;
  /** The customer pays (or a bank transfer stays pending with "unpaid"); a customer is made if asked for. */
  completeSession: (id: string, paymentStatus?: "paid" | "unpaid") => FakeCheckoutSession;
  expireSession: (id: string) => FakeCheckoutSession;
  /** A webhook delivery as Stripe sends it: the JSON body and its Stripe-Signature header. */
  signedEvent: (
    type: string,
    object: unknown,
    options?: { secret?: string; timestamp?: number },
  ) => { payload: string; signature: string };
};

const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

export const stripeError: ErrorShape = (status, code, message) => {
  const type = status >= 500 ? "api_error" : "invalid_request_error";
  return {
    kind: "json",
    status,
    body: {
      error: {
        type,
        message: message ?? (status >= 500 ? "An unknown error occurred" : "Invalid request"),
        param: null,
        code: code ?? null,
      },
    },
    headers: { "request-id": randomId("req_") },
  };
};

function invalid(message: string, param: string | null, code: string | null = null, status = 400): FakeReply {
  return {
    kind: "json",
    status,
    body: { error: { type: "invalid_request_error", message, param, code } },
    headers: { "request-id": randomId("req_") },
  };
}

type FormValue = string | FormObject | FormValue[];
type FormObject = { [key: string]: FormValue };

/** Decodes Stripe's form encoding: `line_items[0][price_data][currency]=usd` -> nested objects and arrays. */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: FormObject | FormValue[] = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const container = node as Record<string, FormValue>;
      if (last) {
        container[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1]!);
      container[part] ??= nextIsIndex ? [] : {};
      node = container[part] as FormObject | FormValue[];
    });
  }
  return root;
}

const text = (value: FormValue | undefined): string | undefined =>
  typeof value === "string" ? value : undefined;
const object = (value: FormValue | undefined): FormObject =>
  value && typeof value === "object" && !Array.isArray(value) ? value : {};
const list = (value: FormValue | undefined): FormValue[] => (Array.isArray(value) ? value : []);

export async function startStripeFake(): Promise<StripeFake> {
  const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const sessions = new Map<string, FakeCheckoutSession>();
  const customers = new Set<string>();
  let origin = "";

  function createSession(form: FormObject): FakeReply {
    for (const param of ["mode", "success_url", "cancel_url"]) {
      if (!text(form[param])) return invalid(`Missing required param: ${param}.`, param, "parameter_missing");
    }
    if (!["payment", "setup", "subscription"].includes(text(form.mode)!)) {
      return invalid(`Invalid mode: must be one of payment, setup, or subscription`, "mode");
    }
    const items = list(form.line_items);
    if (items.length === 0)
      return invalid("Missing required param: line_items.", "line_items", "parameter_missing");
    let amount = 0;
    let currency = "";
    for (const [index, raw] of items.entries()) {
      const item = object(raw);
      const price = object(item.price_data);
      const quantity = Number(text(item.quantity));
      const unitAmount = Number(text(price.unit_amount));
      currency = text(price.currency) ?? "";
      if (!currency) {
        return invalid(
          "Missing required param: line_items[0][price_data][currency].",
          `line_items[${index}][price_data][currency]`,
          "parameter_missing",
        );
      }
      if (!text(object(price.product_data).name)) {
        return invalid(
          "Missing required param: line_items[0][price_data][product_data][name].",
          `line_items[${index}][price_data][product_data][name]`,
          "parameter_missing",
        );
      }
      if (!Number.isInteger(unitAmount) || unitAmount < 50) {
        return invalid(
          "Invalid integer: unit_amount must be at least 50 cents.",
          `line_items[${index}][price_data][unit_amount]`,
        );
      }
      if (!Number.isInteger(quantity) || quantity < 1) {
        return invalid("Invalid quantity.", `line_items[${index}][quantity]`);
      }
      amount += unitAmount * quantity;
    }
    const customer = text(form.customer) ?? null;
    const customerCreation = text(form.customer_creation) ?? null;
    if (customer && customerCreation) {
      return invalid(
        "You may only specify one of these parameters: customer, customer_creation.",
        "customer_creation",
      );
    }
    if (customer && !customers.has(customer)) {
      return invalid(`No such customer: '${customer}'`, "customer", "resource_missing");
    }
    const id = randomId("cs_test_");
    const metadata = Object.fromEntries(
      Object.entries(object(form.metadata)).flatMap(([key, value]) =>
        typeof value === "string" ? [[key, value]] : [],
      ),
    );
    const session: FakeCheckoutSession = {
      id,
      object: "checkout.session",
      mode: text(form.mode)!,
      status: "open",
      payment_status: "unpaid",
      url: `${origin}/c/pay/${id}`,
      amount_total: amount,
      currency,
      client_reference_id: text(form.client_reference_id) ?? null,
      metadata,
      customer,
      customer_creation: customerCreation,
      success_url: text(form.success_url)!,
      cancel_url: text(form.cancel_url)!,
      line_items: items,
      livemode: false,
    };
    sessions.set(id, session);
    return { kind: "json", status: 200, body: session };
  }

  const handler = (request: RecordedRequest): FakeReply => {
    if (bearerToken(request) !== secretKey) {
      return invalid(
        `Invalid API Key provided: ${String(bearerToken(request) ?? "").slice(0, 8)}****`,
        null,
        null,
        401,
      );
    }
    const form = parseStripeForm(request.body.toString("utf8"));
    if (request.method === "POST" && request.path === "/v1/checkout/sessions") return createSession(form);
    const lookup = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === "GET" && lookup) {
      const session = sessions.get(decodeURIComponent(lookup[1]!));
      if (!session) {
        return invalid(`No such checkout.session: '${lookup[1]}'`, "session", "resource_missing", 404);
      }
      return { kind: "json", status: 200, body: session };
    }
    if (request.method === "POST" && request.path === "/v1/billing_portal/sessions") {
      const customer = text(form.customer);
      if (!customer) return invalid("Missing required param: customer.", "customer", "parameter_missing");
      if (!customers.has(customer))
        return invalid(`No such customer: '${customer}'`, "customer", "resource_missing");
      const id = randomId("bps_");
      return {
        kind: "json",
        status: 200,
        body: {
          id,
          object: "billing_portal.session",
          customer,
          return_url: text(form.return_url) ?? null,
          url: `${origin}/p/session/${id}`,
          livemode: false,
        },
      };
    }
    return invalid(`Unrecognized request URL (${request.method}: ${request.path}).`, null, null, 404);
  };

  const server = await startFakeServer(handler, stripeError);
  origin = server.origin;

  const mustFind = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`stripe fake: no session ${id}`);
    return session;
  };

  return {
    ...server,
    secretKey,
    webhookSecret,
    env: {
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: server.origin,
    },
    sessions,
    customers,
    completeSession(id, paymentStatus = "paid") {
      const session = mustFind(id);
      session.status = "complete";
      session.payment_status = paymentStatus;
      session.url = null;
      if (!session.customer && session.customer_creation === "always") {
        session.customer = randomId("cus_");
        customers.add(session.customer);
      }
      return session;
    },
    expireSession(id) {
      const session = mustFind(id);
      session.status = "expired";
      session.url = null;
      return session;
    },
    signedEvent(type, eventObject, options = {}) {
      const payload = JSON.stringify({
        id: randomId("evt_"),
        object: "event",
        api_version: "2026-10-28.endive",
        created: Math.floor(Date.now() / 1000),
        type,
        data: { object: eventObject },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
      });
      return { payload, signature };
    },
  };
}
