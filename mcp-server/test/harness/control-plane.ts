import type { RunningEmulator } from "@custody/emulator";

/** Calls the emulator's control plane (approvals, clock, faults, reset); throws on a non-2xx answer. */
export async function control(emulator: RunningEmulator, method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return text === "" ? null : JSON.parse(text);
}

/** Back to the demo workspace. */
export async function resetWorkspace(emulator: RunningEmulator): Promise<void> {
  await control(emulator, "DELETE", "/faults");
  await control(emulator, "POST", "/reset", { seed: "demo" });
}
