import type { Figure, Section } from "../support/bench-report.js";
import { runLoad, type LoadResult, type LoadSpec } from "../support/http-load.js";
import { ratio } from "../support/latency-stats.js";
import { processCpuMs } from "../support/process-cpu.js";

export interface ThroughputInput {
  /** The bare node:http server's origin. */
  bareUrl: string;
  /** The two server processes, to read the CPU time each request costs them. */
  barePid: number | undefined;
  emulatorPid: number | undefined;
  emulatorBaseUrl: string;
  operator: string;
  accountId: number;
  /** A send the emulator accepts, sent again and again with a fresh note each time. */
  sendBody: Record<string, unknown>;
  concurrency: number;
  durationMs: number;
}

/**
 * The emulator under a closed loop of keep-alive connections, beside a bare node:http server
 * answering a fixed JSON body, with the same load generator in the same run.
 */
export async function measureHttpThroughput(input: ThroughputInput): Promise<Section> {
  const common = { concurrency: input.concurrency, durationMs: input.durationMs, warmupMs: 500 };
  const header = { "x-vendor-api-user": input.operator };
  const loads: { key: string; pid: number | undefined; spec: LoadSpec }[] = [
    { key: "bare_get", pid: input.barePid, spec: { ...common, url: `${input.bareUrl}/`, method: "GET" } },
    {
      key: "emulator_get_account",
      pid: input.emulatorPid,
      spec: { ...common, url: `${input.emulatorBaseUrl}/accounts/${input.accountId}`, method: "GET", headers: header },
    },
    { key: "emulator_get_health", pid: input.emulatorPid, spec: { ...common, url: `${input.emulatorBaseUrl}/_health`, method: "GET", headers: header } },
    {
      key: "bare_post",
      pid: input.barePid,
      spec: {
        ...common,
        url: `${input.bareUrl}/`,
        method: "POST",
        body: (index) => ({ ...input.sendBody, note: { title: "bench", content: `bare ${index}` } }),
      },
    },
    {
      key: "emulator_post_transaction",
      pid: input.emulatorPid,
      spec: {
        ...common,
        url: `${input.emulatorBaseUrl}/transactions`,
        method: "POST",
        headers: header,
        body: (index) => ({ ...input.sendBody, note: { title: "bench", content: `load ${index}` } }),
      },
    },
  ];
  // Warm the load generator and both servers first; then the better of two alternating rounds.
  for (const load of loads.slice(0, 2)) await runLoad({ ...load.spec, durationMs: 1000 });
  const results: Record<string, LoadResult & { serverCpuMsPerRequest: number | null }> = {};
  for (let round = 0; round < 2; round += 1) {
    for (const load of loads) {
      const cpuBefore = processCpuMs(load.pid);
      const result = await runLoad(load.spec);
      const cpuAfter = processCpuMs(load.pid);
      // Warm-up requests are included here; the CPU share of each request is what matters.
      const served = result.requests + Math.round((result.requestsPerSecond * load.spec.warmupMs) / 1000);
      const cpuPerRequest = cpuBefore === null || cpuAfter === null || served === 0 ? null : Math.round(((cpuAfter - cpuBefore) / served) * 1000) / 1000;
      const best = results[load.key];
      if (!best || result.requestsPerSecond > best.requestsPerSecond) results[load.key] = { ...result, serverCpuMsPerRequest: cpuPerRequest };
    }
  }
  const pair = (
    measure: string,
    key: string,
    baselineKey: string,
    field: "requestsPerSecond" | "p50Ms" | "p99Ms" | "serverCpuMsPerRequest",
    unit: string,
    target?: string,
  ): Figure => {
    const value = results[key]?.[field] ?? null;
    const base = results[baselineKey]?.[field] ?? null;
    const r = value === null || base === null ? null : ratio(value, base);
    const errors = results[key]?.errors ?? 0;
    const figure: Figure = { measure, value, unit, baseline: "bare node:http, fixed JSON body", baselineValue: base, ratio: r };
    if (errors > 0) figure.note = `${errors} errors: ${results[key]?.firstError ?? ""}`.slice(0, 200);
    if (target !== undefined) {
      figure.target = target;
      figure.meetsTarget = r === null ? null : r >= 0.5;
    }
    return figure;
  };
  const capacity = (measure: string, key: string, baselineKey: string, target?: string): Figure => {
    const cpu = results[key]?.serverCpuMsPerRequest ?? null;
    const baseCpu = results[baselineKey]?.serverCpuMsPerRequest ?? null;
    const value = cpu === null || cpu === 0 ? null : Math.round(1000 / cpu);
    const base = baseCpu === null || baseCpu === 0 ? null : Math.round(1000 / baseCpu);
    const r = value === null || base === null ? null : ratio(value, base);
    return {
      measure,
      value,
      unit: "req/s",
      baseline: "bare node:http, fixed JSON body",
      baselineValue: base,
      ratio: r,
      note: "one core's worth: 1000 / server CPU ms per request",
      ...(target === undefined ? {} : { target, meetsTarget: r === null ? null : r >= 0.5 }),
    };
  };
  return {
    title:
      `Emulator HTTP throughput (${input.concurrency} keep-alive connections, ${input.durationMs / 1000} s ` +
      "per run, better of 2 alternating runs, load generator in the bench process)",
    figures: [
      pair("GET /accounts/{id}: requests per second", "emulator_get_account", "bare_get", "requestsPerSecond", "req/s", "ratio >= 0.5"),
      pair("GET /accounts/{id}: server CPU per request", "emulator_get_account", "bare_get", "serverCpuMsPerRequest", "ms"),
      capacity("GET /accounts/{id}: capacity of one core", "emulator_get_account", "bare_get", "ratio >= 0.5"),
      pair("GET /accounts/{id}: p50 latency", "emulator_get_account", "bare_get", "p50Ms", "ms"),
      pair("GET /accounts/{id}: p99 latency", "emulator_get_account", "bare_get", "p99Ms", "ms"),
      pair("GET /_health: requests per second", "emulator_get_health", "bare_get", "requestsPerSecond", "req/s", "ratio >= 0.5"),
      pair("GET /_health: server CPU per request", "emulator_get_health", "bare_get", "serverCpuMsPerRequest", "ms"),
      capacity("GET /_health: capacity of one core", "emulator_get_health", "bare_get", "ratio >= 0.5"),
      pair(
        "POST /transactions (send, approved, signed, broadcast): requests per second",
        "emulator_post_transaction",
        "bare_post",
        "requestsPerSecond",
        "req/s",
      ),
      pair("POST /transactions: server CPU per request", "emulator_post_transaction", "bare_post", "serverCpuMsPerRequest", "ms"),
      capacity("POST /transactions: capacity of one core", "emulator_post_transaction", "bare_post"),
      pair("POST /transactions: p50 latency", "emulator_post_transaction", "bare_post", "p50Ms", "ms"),
      pair("POST /transactions: p99 latency", "emulator_post_transaction", "bare_post", "p99Ms", "ms"),
    ],
    details: results,
  };
}
