import { act, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { createStore, useStore } from "./store";

describe("createStore", () => {
  it("keeps a value, takes a new one or an update, and tells its listeners", () => {
    const store = createStore(1);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.set(2);
    store.set((n) => n * 10);
    expect(store.get()).toBe(20);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.set(3);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("tells no one when a set changes nothing", () => {
    const store = createStore({ online: true });
    const listener = vi.fn();
    store.subscribe(listener);
    store.set((state) => state);
    expect(listener).not.toHaveBeenCalled();
  });

  it("tells every listener even when one leaves while being told", () => {
    const store = createStore(0);
    const second = vi.fn();
    const unsubscribe = store.subscribe(() => unsubscribe());
    store.subscribe(second);
    store.set(1);
    expect(second).toHaveBeenCalledTimes(1);
  });
});

describe("useStore", () => {
  it("re-renders a component with the store's value, or the part it picks", () => {
    const store = createStore({ count: 1, label: "clicks" });
    function Count() {
      const count = useStore(store, (state) => state.count);
      const { label } = useStore(store);
      return (
        <p>
          {count} {label}
        </p>
      );
    }
    render(<Count />);
    expect(screen.getByText("1 clicks")).toBeTruthy();
    act(() => store.set((state) => ({ ...state, count: 2 })));
    expect(screen.getByText("2 clicks")).toBeTruthy();
  });
});
