import { spawn } from "node:child_process";

/** Shows a link to the person (their browser on this machine); it must never reach the model, a log or the audit. */
export type PersonOpener = (url: string) => void;

/** The platform's own way to open a link in the person's default browser (no shell: the link is one argument). */
function platformOpener(platform: NodeJS.Platform): string[] {
  if (platform === "darwin") return ["open"];
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler"];
  return ["xdg-open"];
}

/**
 * --confirm-opener: a command, words split on spaces, run with the link as
 * its last argument; `none` opens nothing (the person then confirms in a client that shows forms);
 * null: the platform's. A failure is logged without the link.
 */
export function commandOpener(command: string | null, log: (line: string) => void, platform: NodeJS.Platform = process.platform): PersonOpener | null {
  if (command?.trim() === "none") return null;
  const words = command === null ? platformOpener(platform) : command.trim().split(/\s+/);
  const [program, ...args] = words as [string, ...string[]];
  return (url) => {
    const child = spawn(program, [...args, url], { stdio: "ignore", detached: true });
    child.on("error", (error) => log(`could not open the confirmation page in the person's browser with ${program}: ${error.message}`));
    child.unref();
  };
}
