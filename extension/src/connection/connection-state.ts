import type { CustodyClient, Finding, Health } from "@custody/shared";

/** Where the connection's address came from: the user's settings, or the emulator inside VS Code. */
export type ConnectionOrigin = "settings" | "emulator";

export interface ConnectionTarget {
  baseUrl: string;
  operator: string;
  origin: ConnectionOrigin;
}

export type ConnectionState =
  | { kind: "disconnected" }
  | { kind: "connecting"; target: ConnectionTarget }
  | { kind: "connected"; target: ConnectionTarget; client: CustodyClient; health: Health; versionFindings: Finding[] }
  | { kind: "failed"; target: ConnectionTarget; message: string };

export type ConnectedState = Extract<ConnectionState, { kind: "connected" }>;
