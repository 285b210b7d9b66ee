// A player over plain HTTP, for the deployment checks (scripts/container-smoke.mjs, scripts/proxy-smoke.mjs):
// sign up, follow the verification link, sign in, make a story and play turns, as the web app would, with
// nothing but fetch. It talks to whatever is at `base` (the container, or nginx in front of the app).

/** Fails the check with a message that says what the player saw. */
export function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** Waits until GET /api/ready answers 200 (or the deadline passes). */
export async function waitUntilReady(base, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${base}/api/ready`);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${base}/api/ready did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}

async function call(base, method, path, { token, body, headers = {} } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

/** A request that must answer 2xx; the answer's JSON. */
async function ok(base, method, path, options) {
  const answer = await call(base, method, path, options);
  check(
    answer.status >= 200 && answer.status < 300,
    `${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`,
  );
  return answer.json;
}

/**
 * The verification link from mail the server printed to its log (no SMTP_URL): the block
 * "----- mail to <email>: ... ----- end of mail -----" holds it.
 */
function verificationTokenFrom(log, email) {
  const blocks = log.split(`----- mail to ${email}:`).slice(1);
  for (const block of blocks.reverse()) {
    const text = block.split("----- end of mail -----")[0] ?? "";
    const match = /\/verify-email\?token=([A-Za-z0-9_.~%-]+)/.exec(text);
    if (match) return decodeURIComponent(match[1]);
  }
  return undefined;
}

/**
 * Signs a new player up and in: register, the verification link from the server's log (`readLog` returns
 * the log so far), verify, sign in. Returns the session token and the player's email and password.
 */
export async function signUp(base, readLog) {
  const id = Math.random().toString(16).slice(2, 10);
  const player = {
    email: `player-${id}@example.com`,
    username: `player_${id}`,
    password: `secret-${id}-pass`,
  };
  const registered = await ok(base, "POST", "/api/register", { body: player });
  check(
    registered.requires_verification === true,
    `registration did not ask for verification: ${JSON.stringify(registered)}`,
  );

  let token;
  const deadline = Date.now() + 30_000;
  while (!token && Date.now() < deadline) {
    token = verificationTokenFrom(await readLog(), player.email);
    if (!token) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  check(token, `no verification mail to ${player.email} in the server's log within 30 s`);
  await ok(base, "GET", `/api/verify-email/${encodeURIComponent(token)}`);

  const login = await ok(base, "POST", "/api/login", {
    body: { email: player.email, password: player.password },
  });
  check(login.email_verified === true && typeof login.access_token === "string", "sign-in gave no session");
  console.log(`signed up and verified ${player.email}; ${login.credits_remaining} credits`);
  return { token: login.access_token, email: player.email, password: player.password };
}

/** Signs a known player in; returns the session token. */
export async function signIn(base, email, password) {
  const login = await ok(base, "POST", "/api/login", { body: { email, password } });
  check(typeof login.access_token === "string", `sign-in of ${email} gave no session`);
  return login.access_token;
}

/** A story's messages as the API returns them, as text (for finding what the narrator said). */
export async function storyMessagesText(base, token, storyId) {
  const answer = await call(base, "GET", `/api/stories/${storyId}/messages`, { token });
  check(
    answer.status === 200,
    `GET /api/stories/${storyId}/messages answered ${answer.status}: ${answer.text}`,
  );
  return answer.text;
}

export async function createStory(base, token, title) {
  const created = await ok(base, "POST", "/api/stories", {
    token,
    body: { title, context: "A lighthouse keeper finds a map in a bottle." },
  });
  check(typeof created.story?.id === "string", `no story id in ${JSON.stringify(created)}`);
  return created.story.id;
}

/** One turn answered as JSON; returns the answer. */
export async function playTurn(base, token, storyId, turn) {
  const answer = await ok(base, "POST", `/api/stories/${storyId}/chat`, { token, body: turn });
  check(
    typeof answer.story_text === "string" && answer.story_text.trim().length > 0,
    `the narrator said nothing: ${JSON.stringify(answer).slice(0, 500)}`,
  );
  return answer;
}

/** Waits for a turn's picture or clip to be made by a worker; returns the final media status. */
export async function waitForMedia(base, token, storyId, messageId, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let status;
  while (Date.now() < deadline) {
    status = await ok(base, "GET", `/api/stories/${storyId}/media-status/${messageId}`, { token });
    if (status.status === "completed" || status.status === "failed") break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  check(status?.status === "completed", `the turn's media did not complete: ${JSON.stringify(status)}`);
  return status;
}

/**
 * One turn with Accept: text/event-stream. Reads the stream as it arrives: the time of the first `delta`, the
 * time of `done` and its answer. `onFirstWords` runs when the first words arrive (e.g. to stop the server
 * mid-turn).
 */
export async function playStreamedTurn(base, token, storyId, turn, onFirstWords) {
  const started = performance.now();
  const response = await fetch(`${base}/api/stories/${storyId}/chat`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(turn),
  });
  if (response.status !== 200)
    throw new Error(`streamed turn answered ${response.status}: ${await response.text()}`);
  check(
    (response.headers.get("content-type") ?? "").startsWith("text/event-stream"),
    `streamed turn came as ${response.headers.get("content-type")}`,
  );
  const decoder = new TextDecoder();
  let buffer = "";
  let text = "";
  let firstWordsAt;
  let done;
  let error;
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (!event || data === undefined) continue;
      if (event === "delta") {
        text += JSON.parse(data).text;
        if (firstWordsAt === undefined) {
          firstWordsAt = performance.now() - started;
          onFirstWords?.();
        }
      } else if (event === "done") {
        done = { answer: JSON.parse(data), at: performance.now() - started };
      } else if (event === "error") {
        error = data;
      }
    }
  }
  check(!error, `the streamed turn ended with an error event: ${error}`);
  check(done, "the stream ended without its done event (cut off?)");
  check(firstWordsAt !== undefined, "no words came before the end of the turn");
  check(text === done.answer.story_text, "the words streamed differ from the turn's saved answer");
  return { text, firstWordsAtMs: firstWordsAt, doneAtMs: done.at, answer: done.answer };
}
