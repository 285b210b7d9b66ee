// Mail links are created and sent by a job, not by the request: the request does the same small amount
// of work whether or not the account exists (no enumeration by timing), the plaintext token never sits in
// the database, and a failing mail server is retried with backoff.
import { z } from "zod";
import type { JobSpec } from "../jobs/queue";

export const sendAccountLinkJob: JobSpec<{ purpose: "verify_email" | "reset_password"; email: string }> = {
  name: "accounts-send-link",
  payload: z.object({ purpose: z.enum(["verify_email", "reset_password"]), email: z.string() }),
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 120,
};
