import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { OPTIONS, parseArgsOptions } from "../config/options.js";
import { boundedRead } from "./bounded-read.js";

/** A policy file larger than this is left to the server (the opening is then not answered from the cache). */
const MAX_POLICY_BYTES = 1024 * 1024;
/** The bundle's entry names its chunks by their content hashes: its own bytes identify the build. */
const MAX_ENTRY_BYTES = 1024 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * What every opening answer of this process may depend on, hashed: the bundle (its entry's bytes,
 * which name every chunk by its content hash), the arguments, every variable of the options
 * registry (hashed with the rest: a secret is never written, only this digest), and the policy
 * file's content. Null when the process does not serve stdio from its configuration alone: --http,
 * --help, a command, arguments it would refuse, no base URL (the embedded workspace's address,
 * part of the instructions, is chosen at start), or a file it cannot read.
 */
export function openingConfigurationKey(entry: string, argv: readonly string[], env: Env): string | null {
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: parseArgsOptions() });
    if (parsed.positionals.length > 0) return null;
    values = parsed.values;
  } catch {
    return null;
  }
  if (values.http === true || values.help === true) return null;
  const setting = (flag: string, variable: string) => {
    const value = values[flag] ?? env[variable];
    return typeof value === "string" && value !== "" ? value : null;
  };
  if (setting(OPTIONS.baseUrl.flag, OPTIONS.baseUrl.env) === null) return null;
  const bundle = boundedRead(entry, MAX_ENTRY_BYTES);
  if (bundle === null) return null;
  const hash = createHash("sha256");
  const part = (name: string, value: string | Buffer) => hash.update(`${name}\0${value.length}\0`).update(value);
  part("bundle", bundle);
  part("argv", JSON.stringify(argv));
  for (const option of Object.values(OPTIONS)) if (option.env !== null) part(option.env, JSON.stringify(env[option.env] ?? null));
  const policyPath = setting(OPTIONS.policy.flag, OPTIONS.policy.env);
  if (policyPath !== null) {
    const policy = boundedRead(policyPath, MAX_POLICY_BYTES);
    if (policy === null) return null;
    part("policy", policy);
  }
  return hash.digest("hex");
}
