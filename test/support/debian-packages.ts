import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

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

/** A Debian package and the files that show it is installed. */
export interface DebianPackage {
  name: string;
  files: string[];
}

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * Installs the Debian packages whose files are missing, with apt-get (update first), as the
 * end-to-end set-up does. Test files run in parallel: installs take turns under flock, and each
 * looks again once it holds the lock, so a package is installed once. Without root or sudo it
 * installs nothing and says why; under CI that is an error, never a skip.
 */
export function ensureDebianPackages(wanted: DebianPackage[], log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Installed {
  const missing = wanted.filter((item) => !item.files.every((file) => existsSync(file)));
  if (missing.length === 0) return { ok: true };
  const names = missing.map((item) => item.name);
  const prefix = installer();
  if (prefix === null) {
    const reason =
      `the Debian packages ${names.join(", ")} are missing and this user cannot install them (not root, ` +
      `no password-less sudo): run apt-get install -y ${names.join(" ")} as root`;
    if (process.env.CI) throw new Error(reason);
    return { ok: false, reason };
  }
  const present = missing
    .flatMap((item) => item.files)
    .map((file) => `test -e ${quoted(file)}`)
    .join(" && ");
  const apt = "apt-get -o DPkg::Lock::Timeout=600";
  const script = `${present} || { ${apt} update -qq && ${apt} install -y -qq --no-install-recommends ${names.join(" ")}; }`;
  log(`installing Debian packages: ${names.join(", ")}`);
  const [command, ...args] = [...prefix, "flock", "-w", "900", "/tmp/custody-test-apt.lock", "sh", "-c", script];
  execFileSync(command as string, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, timeout: 900_000 });
  const still = missing.filter((item) => !item.files.every((file) => existsSync(file))).map((item) => item.name);
  if (still.length > 0) throw new Error(`apt-get install ${names.join(" ")} finished, but ${still.join(", ")} still missing`);
  return { ok: true };
}
