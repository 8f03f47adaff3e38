import type { CustodyClient, Finding, Health } from "@custody/shared";

/** Where the connection's address came from: the user's settings, or the emulator inside VS Code. */
export type ConnectionOrigin = "settings" | "emulator";

/** The key the built-in emulator was started with: only who holds it reaches that emulator. */
export interface EmulatorKey {
  /** Sent as X-Emulator-Key on every call. */
  value: string;
  /** A file (mode 0600) holding it, for the MCP server provided to agent mode. */
  file: string;
}

export interface ConnectionTarget {
  baseUrl: string;
  operator: string;
  origin: ConnectionOrigin;
  emulatorKey?: EmulatorKey;
}

export type ConnectionState =
  | { kind: "disconnected" }
  | { kind: "connecting"; target: ConnectionTarget }
  | { kind: "connected"; target: ConnectionTarget; client: CustodyClient; health: Health; versionFindings: Finding[] }
  | { kind: "failed"; target: ConnectionTarget; message: string };

export type ConnectedState = Extract<ConnectionState, { kind: "connected" }>;
