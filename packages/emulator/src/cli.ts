import { readLocalSecretFile, errorMessage } from "@custody/shared";
import { parseCliArgs, USAGE } from "./cli-args.js";
import { startEmulator } from "./emulator.js";

/** custody-emulator serve ...: prints one JSON line when ready, runs until SIGINT or SIGTERM. */
async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCliArgs(argv, process.env);
    if (command.kind === "serve" && command.keyFile) command.options.key = readLocalSecretFile(command.keyFile.path, command.keyFile.setting);
  } catch (error) {
    process.stderr.write(`custody-emulator: ${errorMessage(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.kind === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const emulator = await startEmulator(command.options);
  process.stdout.write(`${JSON.stringify({ base_url: emulator.baseUrl, control_url: emulator.controlUrl, operators: emulator.operators })}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await emulator.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`custody-emulator: ${errorMessage(error)}\n`);
    process.exit(1);
  },
);
