import { execFileSync } from "node:child_process";

/** Whether this process may install Debian packages: as root (CI runs as root) or with password-less sudo. */
function installer(): string[] | null {
  if (process.getuid?.() === 0) return [];
  try {
    execFileSync("sudo", ["-n", "true"], { stdio: "ignore" });
    return ["sudo", "-n"];
  } catch {
    return null;
  }
}

export type Installed = { ok: true } | { ok: false; reason: string };

/**
 * Installs the Debian packages whose `present` check fails, with apt-get (update first), as the
 * end-to-end set-up does. Test files run in parallel, so installs take turns under flock and each
 * checks again once it holds the lock. Without root or sudo it installs nothing and says why;
 * under CI that is an error, never a skip.
 */
export function ensureDebianPackages(wanted: { name: string; present: () => boolean }[], log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Installed {
  const missing = wanted.filter((item) => !item.present()).map((item) => item.name);
  if (missing.length === 0) return { ok: true };
  const prefix = installer();
  if (prefix === null) {
    const reason = `the Debian packages ${missing.join(", ")} are missing and this user cannot install them (not root, no password-less sudo): run apt-get install -y ${missing.join(" ")} as root`;
    if (process.env.CI) throw new Error(reason);
    return { ok: false, reason };
  }
  const script = `apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends ${missing.join(" ")}`;
  log(`installing Debian packages: ${missing.join(", ")}`);
  const [command, ...args] = [...prefix, "flock", "-w", "900", "/tmp/custody-test-apt.lock", "sh", "-c", script];
  execFileSync(command as string, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, timeout: 900_000 });
  const still = wanted.filter((item) => !item.present()).map((item) => item.name);
  if (still.length > 0) throw new Error(`apt-get install ${missing.join(" ")} finished, but ${still.join(", ")} still missing`);
  return { ok: true };
}
