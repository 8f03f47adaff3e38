import type { AccountGovernance, GovernanceRule } from "@custody/shared";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/index.js";
import { HttpCaller, obj, type HttpAnswer } from "./http-client.js";

export interface Harness {
  emulator: RunningEmulator;
  /** Service calls as an operator (header X-Vendor-API-User). */
  api: (operator: string | null) => HttpCaller;
  control: HttpCaller;
  close: () => Promise<void>;
}

/** Only internal errors (bugs) reach the test output. */
const logBugs = (line: string): void => {
  if (line.startsWith("internal error") || line.startsWith("scheduler")) process.stderr.write(`${line}\n`);
};

/** A real emulator on 127.0.0.1, port 0, in memory unless a data directory is given. */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ seed: "empty", processingDelayMs: 0, log: logBugs, ...options });
  const service = new HttpCaller(emulator.baseUrl);
  return {
    emulator,
    api: (operator) => service.as(operator),
    control: new HttpCaller(emulator.controlUrl),
    close: () => emulator.close(),
  };
}

export function expectStatus(answer: HttpAnswer, status: number): HttpAnswer {
  if (answer.status !== status) throw new Error(`expected HTTP ${status}, got ${answer.status}: ${answer.text}`);
  return answer;
}

/** The spec's registration flow, through the module endpoints and the control plane, ending ACTIVE. */
export async function registerOperator(h: Harness, name: string): Promise<void> {
  const created = obj(expectStatus(await h.api(name).post("/api_users", { name }), 200));
  const invitation = obj(expectStatus(await h.control.post("/invitations", { username: name, device_id: created.device_id, invited_by: "alice.admin" }), 200));
  expectStatus(await h.api(name).post(`/api_users/${name}/register/${String(invitation.uuid)}`, { name }), 200);
  expectStatus(await h.control.post(`/users/${name}/approve`, { admin: "alice.admin" }), 200);
  expectStatus(await h.control.post(`/users/${name}/approve`, { admin: "bob.admin" }), 200);
}

export const api = (username: string) => ({ username, is_api: true });
export const human = (username: string) => ({ username, is_api: false });

/** A rule whose creators are the operators and whose single step any one of them satisfies. */
export function operatorsRule(...operators: string[]): GovernanceRule {
  return { creators: operators.map(api), steps: [{ quorum: 1, approvers: operators.map(api) }] };
}

/** A rule that also needs one human approval after the operator's. */
export function humanRule(operator: string, ...humans: string[]): GovernanceRule {
  return {
    creators: [api(operator)],
    steps: [
      { quorum: 1, approvers: [api(operator)] },
      { quorum: 1, approvers: humans.map(human) },
    ],
  };
}

export function governance(transaction: GovernanceRule, extra: Partial<AccountGovernance> = {}): AccountGovernance {
  return { transaction, staking: null, smart_contract: null, ...extra };
}

/** Creates an account through the control plane with a balance in base units; returns its record. */
export async function createAccount(h: Harness, name: string, currency: string, balance: bigint, rules: AccountGovernance): Promise<Record<string, unknown>> {
  return obj(expectStatus(await h.control.post("/accounts", { name, currency, governance: rules, balance: balance.toString() }), 200));
}

export async function advance(h: Harness, body: { seconds?: number; ms?: number; epochs?: number }): Promise<Record<string, unknown>> {
  return obj(expectStatus(await h.control.post("/clock/advance", body), 200));
}
