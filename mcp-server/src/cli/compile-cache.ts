import { mkdirSync, statSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

type EnableCompileCache = (directory: string) => { status: number; message?: string };

/**
 * A folder of the server's in the user's own cache directory ($XDG_CACHE_HOME or ~/.cache;
 * ~/Library/Caches on macOS; %LOCALAPPDATA% on Windows), never one another user could write into.
 */
export function userCacheDirectory(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const xdg = env.XDG_CACHE_HOME;
  if (platform === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "custody-mcp", name);
  if (platform === "darwin") return join(home, "Library", "Caches", "custody-mcp", name);
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, ".cache"), "custody-mcp", name);
}

/** Where V8 keeps the server's compiled code between starts. */
export function compileCacheDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  return userCacheDirectory("compile-cache", env, platform, home);
}

/** The folder `name` of the user's cache directory, created private to its owner; null when it is someone else's, writable by others, or cannot be made. */
export function privateCacheDirectory(name: string): string | null {
  try {
    const directory = userCacheDirectory(name);
    return privateDirectory(directory) ? directory : null;
  } catch {
    return null;
  }
}

/** Creates the directory, private to its owner (0700), if it is missing; whether it is this user's and writable by no one else. */
export function privateDirectory(directory: string): boolean {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const status = statSync(directory);
  const owner = process.getuid?.();
  if (owner !== undefined && status.uid !== owner) return false;
  return process.platform === "win32" || (status.mode & 0o022) === 0;
}

/**
 * Node's module compile cache (Node 22.1 and later; Node 20 has none and starts as before): the
 * second start of a version reads V8's code for the start files instead of compiling them again.
 * The directory is created private to its owner, and not used when it is someone else's or
 * writable by others. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
 * Returns the directory in use, or null.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): string | null {
  const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== "function" || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return null;
  try {
    const directory = compileCacheDirectory(env);
    if (!privateDirectory(directory)) return null;
    enable(directory);
    return directory;
  } catch {
    // A start without the cache is only slower.
    return null;
  }
}
