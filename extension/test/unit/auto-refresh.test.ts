import { afterEach, describe, expect, it, vi } from "vitest";
vi.mock("vscode", () => import("./support/fake-vscode.js"));
import { AutoRefresh } from "../../src/auto-refresh.js";

describe("automatic refresh", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("refreshes on the configured interval, follows a change of interval, and stops at 0", () => {
    vi.useFakeTimers();
    const refresh = vi.fn();
    const auto = new AutoRefresh(refresh);
    auto.schedule(30);
    vi.advanceTimersByTime(29_999);
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    auto.schedule(5);
    vi.advanceTimersByTime(10_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    auto.schedule(0);
    vi.advanceTimersByTime(60_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    auto.dispose();
  });
});
