import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { REPO_DIR } from "./spawn-cli.js";

/** Builds the emulator's dist/ (the CLI launcher runs it), as `tsc -b` does. */
export function buildEmulator(): void {
  execFileSync(join(REPO_DIR, "node_modules", ".bin", "tsc"), ["-b", "packages/emulator"], { cwd: REPO_DIR, stdio: "pipe" });
}
