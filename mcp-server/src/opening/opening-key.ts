import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
// A subpath of its own: the entry must not load shared's index.
import { databaseUrlShown, isDatabaseUrl } from "@custody/shared/store-location";
import { OPTIONS, parseArgsOptions, type OptionDeclaration } from "../config/options.js";
import { boundedRead } from "./bounded-read.js";

/** A policy file larger than this is left to the server (the opening is then not answered from the cache). */
const MAX_POLICY_BYTES = 1024 * 1024;
/** The bundle's entry names its chunks by their content hashes: its own bytes identify the build. */
const MAX_ENTRY_BYTES = 1024 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * What a setting adds to the key. No secret changes an opening answer (the bearer token and the
 * page's client secret serve --http only; a database's password reaches nothing the opening says):
 * a secret adds only whether it is set, a database URL its masked form, so that no file name can be
 * checked against a guessed secret.
 */
function keyed(option: OptionDeclaration, value: string | boolean | undefined): string {
  if (typeof value !== "string") return JSON.stringify(value ?? null);
  if (option.secret === true) return JSON.stringify(value === "" ? "" : "set");
  if (option === OPTIONS.store && isDatabaseUrl(value)) {
    try {
      return JSON.stringify(databaseUrlShown(value));
    } catch {
      return JSON.stringify("an invalid database URL");
    }
  }
  return JSON.stringify(value);
}

/**
 * What every opening answer of this process may depend on, hashed: the bundle (its entry's bytes,
 * which name every chunk by its content hash), every flag and every variable of the options
 * registry as the server reads them (a secret only as set or not: `keyed`), and the policy file's
 * content. Null when the process does not serve stdio from its configuration alone: --http,
 * --help, a command, arguments it would refuse, or a file it cannot read. Without a base URL the
 * server starts the embedded demo workspace, whose opening answers name no address: keyed as the
 * settings read, like any other.
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
  const bundle = boundedRead(entry, MAX_ENTRY_BYTES);
  if (bundle === null) return null;
  const hash = createHash("sha256");
  const part = (name: string, value: string | Buffer) => hash.update(`${name}\0${value.length}\0`).update(value);
  part("bundle", bundle);
  for (const option of Object.values<OptionDeclaration>(OPTIONS)) {
    if (option.flag !== null) part(`--${option.flag}`, keyed(option, values[option.flag]));
    if (option.env !== null) part(option.env, keyed(option, env[option.env]));
  }
  const policyPath = setting(OPTIONS.policy.flag, OPTIONS.policy.env);
  if (policyPath !== null) {
    const policy = boundedRead(policyPath, MAX_POLICY_BYTES);
    if (policy === null) return null;
    part("policy", policy);
  }
  return hash.digest("hex");
}
