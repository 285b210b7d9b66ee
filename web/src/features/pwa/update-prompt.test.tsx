// The update prompt over a fake service worker container: the first install is no new version; a new worker
// that installs while the page is run by another brings the prompt; Reload lets the waiting worker take over
// and reloads once the page runs under it (never before the click); Not now puts the prompt away; a new
// version another tab let take over also brings the prompt, and then Reload is a plain reload.
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SKIP_WAITING as WORKER_SKIP_WAITING } from "../../sw/routes";
import { registerServiceWorker, resetUpdateState, SKIP_WAITING } from "./service-worker";
import { UpdatePrompt } from "./update-prompt";

// The words decision 0139 records.
const UPDATE_READY = "A new version of Storyverse is ready.";
const UPDATE_DETAIL = "Reload when you're ready, once you've finished what you're typing.";

class FakeWorker extends EventTarget {
  state = "installing";
  messages: unknown[] = [];
  postMessage(message: unknown) {
    this.messages.push(message);
  }
  moveTo(state: string) {
    this.state = state;
    this.dispatchEvent(new Event("statechange"));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  update = vi.fn(async () => {});
  arrive(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event("updatefound"));
  }
}

class FakeContainer extends EventTarget {
  controller: FakeWorker | null;
  registration = new FakeRegistration();
  constructor(controller: FakeWorker | null) {
    super();
    this.controller = controller;
  }
  register = vi.fn(async () => this.registration);
  takeOver(worker: FakeWorker) {
    this.controller = worker;
    this.dispatchEvent(new Event("controllerchange"));
  }
}

async function start(controller: FakeWorker | null) {
  const container = new FakeContainer(controller);
  const reload = vi.fn();
  await registerServiceWorker(container as unknown as ServiceWorkerContainer, reload);
  render(<UpdatePrompt />);
  return { container, reload };
}

afterEach(() => {
  act(() => resetUpdateState());
});

describe("the update prompt", () => {
  it("stays away at the first install, when the new worker takes over a page nobody ran", async () => {
    const { container, reload } = await start(null);
    expect(container.register).toHaveBeenCalledWith("/sw.js", { scope: "/" });
    const first = new FakeWorker();
    act(() => container.registration.arrive(first));
    act(() => first.moveTo("installed"));
    act(() => container.takeOver(first));
    expect(screen.queryByRole("status", { name: "New version" })).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });

  it("offers the new version once it waits, and reloads only after Reload, once it runs the page", async () => {
    const { container, reload } = await start(new FakeWorker());
    const next = new FakeWorker();
    act(() => container.registration.arrive(next));
    expect(screen.queryByRole("status", { name: "New version" })).toBeNull();
    act(() => next.moveTo("installed"));

    const prompt = screen.getByRole("status", { name: "New version" });
    expect(prompt.textContent).toContain(UPDATE_READY);
    expect(prompt.textContent).toContain(UPDATE_DETAIL);
    expect(reload).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: "Reload" }));
    expect(next.messages).toEqual([SKIP_WAITING]);
    expect(reload).not.toHaveBeenCalled();
    act(() => container.takeOver(next));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("offers a version that was already waiting when the page opened", async () => {
    const container = new FakeContainer(new FakeWorker());
    const waiting = new FakeWorker();
    waiting.state = "installed";
    container.registration.waiting = waiting;
    await registerServiceWorker(container as unknown as ServiceWorkerContainer, vi.fn());
    render(<UpdatePrompt />);
    expect(screen.getByRole("status", { name: "New version" }).textContent).toContain(UPDATE_READY);
  });

  it("puts the prompt away with Not now, without reloading", async () => {
    const { container, reload } = await start(new FakeWorker());
    const next = new FakeWorker();
    act(() => container.registration.arrive(next));
    act(() => next.moveTo("installed"));
    fireEvent.click(screen.getByRole("button", { name: "Not now" }));
    expect(screen.queryByRole("status", { name: "New version" })).toBeNull();
    expect(next.messages).toEqual([]);
    expect(reload).not.toHaveBeenCalled();
  });

  it("offers a reload when another tab let the new version take over this page", async () => {
    const { container, reload } = await start(new FakeWorker());
    act(() => container.takeOver(new FakeWorker()));
    expect(screen.getByRole("status", { name: "New version" }).textContent).toContain(UPDATE_READY);
    expect(reload).not.toHaveBeenCalled();
  });

  it("sends the worker the message it listens for", () => {
    expect(SKIP_WAITING).toBe(WORKER_SKIP_WAITING);
  });
});
