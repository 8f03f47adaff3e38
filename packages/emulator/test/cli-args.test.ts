import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../src/cli-args.js";
import { PACKAGE_DIR } from "./support/spawn-cli.js";

describe("custody-emulator command line", () => {
  it("reads every serve option", () => {
    expect(
      parseCliArgs([
        "serve",
        "--port",
        "4010",
        "--host=0.0.0.0",
        "--base-path",
        "/vault",
        "--data-dir",
        "/tmp/state",
        "--seed",
        "empty",
        "--epoch-seconds",
        "60",
        "--processing-delay-ms=5",
        "--rate-limit",
        "20",
        "--control-any-address",
      ]),
    ).toEqual({
      kind: "serve",
      options: {
        port: 4010,
        host: "0.0.0.0",
        basePath: "/vault",
        dataDir: "/tmp/state",
        seed: "empty",
        epochSeconds: 60,
        processingDelayMs: 5,
        rateLimit: { requestsPerSecond: 20 },
        controlFromAnyAddress: true,
      },
    });
  });

  it("takes the key file from --key-file, else from CUSTODY_EMULATOR_KEY_FILE, naming the setting it came from", () => {
    expect(parseCliArgs(["serve"])).toEqual({ kind: "serve", options: {} });
    expect(parseCliArgs(["serve", "--key-file", "/run/key"])).toEqual({ kind: "serve", options: {}, keyFile: { path: "/run/key", setting: "--key-file" } });
    expect(parseCliArgs(["serve"], { CUSTODY_EMULATOR_KEY_FILE: "/env/key" })).toMatchObject({
      keyFile: { path: "/env/key", setting: "CUSTODY_EMULATOR_KEY_FILE" },
    });
    expect(parseCliArgs(["serve", "--key-file=/run/key"], { CUSTODY_EMULATOR_KEY_FILE: "/env/key" })).toMatchObject({
      keyFile: { path: "/run/key", setting: "--key-file" },
    });
    expect(() => parseCliArgs(["serve", "--key-file"])).toThrow(/^--key-file: needs a value/);
  });

  it("answers help, and refuses unknown commands, unknown flags and bad values naming the flag", () => {
    expect(parseCliArgs([])).toEqual({ kind: "help" });
    expect(parseCliArgs(["serve", "--help"])).toEqual({ kind: "help" });
    expect(() => parseCliArgs(["start"])).toThrow(/unknown command "start"/);
    expect(() => parseCliArgs(["serve", "--verbose"])).toThrow(/unknown option "--verbose"/);
    expect(() => parseCliArgs(["serve", "--port", "abc"])).toThrow(/^--port: must be a whole number/);
    expect(() => parseCliArgs(["serve", "--seed", "full"])).toThrow(/^--seed: must be demo or empty/);
    expect(() => parseCliArgs(["serve", "--data-dir"])).toThrow(/^--data-dir: needs a value/);
  });

  it("refuses a value out of its range naming the flag, with status 2 and the usage, as any other bad command line", () => {
    const refusals: [string[], string][] = [
      [["--port", "70000"], "--port: must be at most 65535"],
      [["--epoch-seconds", "0"], "--epoch-seconds: must be a whole number of at least 1"],
      [["--rate-limit", "0"], "--rate-limit: must be greater than 0"],
      // A client's URL parser resolves the dots away: no request would reach the path served.
      [["--base-path", "/a/../module"], "--base-path: must be a URL path such as /module"],
    ];
    for (const [args, message] of refusals) {
      // Bounded: an emulator that accepted the value would serve until killed.
      const run = spawnSync(process.execPath, [`${PACKAGE_DIR}bin/custody-emulator.js`, "serve", ...args], { encoding: "utf8", timeout: 20_000 });
      expect([run.status, run.stdout], args.join(" ")).toEqual([2, ""]);
      expect(run.stderr).toMatch(new RegExp(`^custody-emulator: ${message}[^\n]*\n\nUsage: custody-emulator serve`));
    }
  });
});
