import { resolveOptions, type EmulatorOptions } from "./options.js";

export const USAGE = `Usage: custody-emulator serve [options]

Options:
  --port <n>                 port to listen on (default 0: a free port)
  --host <address>           interface to listen on (default 127.0.0.1)
  --base-path <path>         base path of the service (default /module)
  --data-dir <dir>           keep the state in this directory (default: in memory only)
  --seed <demo|empty>        workspace to create when the state is new (default demo)
  --epoch-seconds <n>        length of a Solana epoch in simulated seconds (default 216000)
  --processing-delay-ms <n>  delay before signing, and again before broadcast (default 100)
  --rate-limit <n>           requests per second per operator, answered 420 beyond (default none)
  --control-any-address      serve the control plane to non-loopback callers too
  --key-file <file>          require on every request, in X-Emulator-Key, the key held in this file
                             (32+ printable characters; env CUSTODY_EMULATOR_KEY_FILE; default: no key)

When ready, prints one JSON line: {"base_url": ..., "control_url": ..., "operators": [...]}.`;

/** keyFile: the file holding the key every request must carry, and the setting that named it (for messages). */
export type CliCommand = { kind: "serve"; options: EmulatorOptions; keyFile?: { path: string; setting: string } } | { kind: "help" };

function integer(flag: string, value: string | undefined): number {
  if (value === undefined || !/^[0-9]{1,9}$/.test(value)) throw new Error(`${flag}: must be a whole number, got ${JSON.stringify(value ?? "")}`);
  return Number(value);
}

function text(flag: string, value: string | undefined): string {
  if (value === undefined || value.startsWith("--")) throw new Error(`${flag}: needs a value`);
  return value;
}

/** Reads the command line (flags win over the environment); throws an Error whose message names the flag and the rule. */
export function parseCliArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): CliCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") return { kind: "help" };
  if (command !== "serve") throw new Error(`unknown command ${JSON.stringify(command)}; the command is serve`);
  const options: EmulatorOptions = {};
  let keyFile: { path: string; setting: string } | undefined = env.CUSTODY_EMULATOR_KEY_FILE
    ? { path: env.CUSTODY_EMULATOR_KEY_FILE, setting: "CUSTODY_EMULATOR_KEY_FILE" }
    : undefined;
  for (let index = 0; index < rest.length; index += 1) {
    const flag = rest[index] ?? "";
    const [name, inline] = flag.includes("=") ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)] : [flag, undefined];
    const value = (): string | undefined => {
      if (inline !== undefined) return inline;
      index += 1;
      return rest[index];
    };
    switch (name) {
      case "--port":
        options.port = integer(name, value());
        break;
      case "--host":
        options.host = text(name, value());
        break;
      case "--base-path":
        options.basePath = text(name, value());
        break;
      case "--data-dir":
        options.dataDir = text(name, value());
        break;
      case "--seed": {
        const seed = text(name, value());
        if (seed !== "demo" && seed !== "empty") throw new Error(`--seed: must be demo or empty, got ${JSON.stringify(seed)}`);
        options.seed = seed;
        break;
      }
      case "--epoch-seconds":
        options.epochSeconds = integer(name, value());
        break;
      case "--processing-delay-ms":
        options.processingDelayMs = integer(name, value());
        break;
      case "--rate-limit":
        options.rateLimit = { requestsPerSecond: integer(name, value()) };
        break;
      case "--control-any-address":
        options.controlFromAnyAddress = true;
        break;
      case "--key-file":
        keyFile = { path: text(name, value()), setting: "--key-file" };
        break;
      case "--help":
      case "-h":
        return { kind: "help" };
      default:
        throw new Error(`unknown option ${JSON.stringify(flag)}; see custody-emulator --help`);
    }
  }
  checkRanges(options);
  return keyFile === undefined ? { kind: "serve", options } : { kind: "serve", options, keyFile };
}

/** The flag of each option whose range resolveOptions checks. */
const FLAG_OF_OPTION: Readonly<Record<string, string>> = {
  port: "--port",
  basePath: "--base-path",
  epochSeconds: "--epoch-seconds",
  processingDelayMs: "--processing-delay-ms",
  "rateLimit.requestsPerSecond": "--rate-limit",
};

/** The options' ranges, as the emulator checks them, said with the flag that set them (a refused command line exits 2, with the usage). */
function checkRanges(options: EmulatorOptions): void {
  try {
    resolveOptions(options);
  } catch (error) {
    const message = (error as Error).message;
    const option = message.slice(0, message.indexOf(":"));
    throw new Error(`${FLAG_OF_OPTION[option] ?? option}${message.slice(option.length)}`, { cause: error });
  }
}
