import { Agent } from "node:http";
import { performance } from "node:perf_hooks";
import { httpCall } from "./json-http.js";
import { percentile, roundMs } from "./latency-stats.js";

export interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  /** The JSON body of each POST; a function gives each request its own. */
  body?: (index: number) => unknown;
  concurrency: number;
  durationMs: number;
  /** Requests sent before the measured window starts (connections opened, code warmed up). */
  warmupMs: number;
}

export interface LoadResult {
  requests: number;
  /** Answers that were not 2xx, or failed connections. */
  errors: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The first non-2xx answer, to explain errors. */
  firstError: string | null;
}

/**
 * A closed-loop load generator in this process: `concurrency` workers on keep-alive connections,
 * each sending its next request as soon as the previous one is answered, for a bounded time.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let index = 0;
  const warmEnds = performance.now() + spec.warmupMs;
  const ends = warmEnds + spec.durationMs;
  const worker = async () => {
    for (let now = performance.now(); now < ends; now = performance.now()) {
      const started = now;
      let ok = false;
      try {
        const answer = await httpCall(agent, spec.method, spec.url, spec.body?.(index++), spec.headers);
        ok = answer.status >= 200 && answer.status < 300;
        if (!ok) firstError ??= `HTTP ${answer.status} ${answer.text.slice(0, 300)}`;
      } catch (error) {
        firstError ??= String(error);
      }
      const finished = performance.now();
      if (started < warmEnds || finished > ends) continue;
      latencies.push(finished - started);
      if (!ok) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  agent.destroy();
  return {
    requests: latencies.length,
    errors,
    requestsPerSecond: Math.round(latencies.length / (spec.durationMs / 1000)),
    p50Ms: roundMs(percentile(latencies, 50)),
    p99Ms: roundMs(percentile(latencies, 99)),
    firstError,
  };
}
