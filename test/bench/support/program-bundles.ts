import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions, type Plugin } from "esbuild";

export const REPO_DIR = fileURLToPath(new URL("../../../", import.meta.url));
const MCP_BUILD_SCRIPT = join(REPO_DIR, "mcp-server", "build.mjs");

/** The options of mcp-server/build.mjs, so every program measured is bundled the same way. */
const BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["@custody/source"],
  legalComments: "none",
  logLevel: "warning",
  banner: { js: 'import { createRequire as __custodyCreateRequire } from "node:module"; const require = __custodyCreateRequire(import.meta.url);' },
};

export function bundleDir(): string {
  return mkdtempSync(join(tmpdir(), "custody-bench-"));
}

/** The MCP server exactly as shipped: its own build script, into `outfile`. */
export function buildCustodyServer(outfile: string): string {
  execFileSync(process.execPath, [MCP_BUILD_SCRIPT, outfile], { stdio: "inherit" });
  return outfile;
}

/** A TypeScript entry bundled with the MCP server's options (workspace packages from source). */
export async function bundleEntry(entry: string, outfile: string, plugins: Plugin[] = []): Promise<string> {
  await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile, plugins });
  return outfile;
}

/**
 * The same with esbuild's code splitting: modules reached only through `import()` go to chunk
 * files beside the entry, loaded when first imported. Returns the entry's output file.
 */
export async function bundleEntrySplit(entry: string, outdir: string, plugins: Plugin[] = []): Promise<string> {
  await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outdir, splitting: true, plugins });
  return join(outdir, `${basename(entry, extname(entry))}.js`);
}

/** One edit of a source file, for a diagnostic build: `from` must occur exactly once. */
export interface SourceEdit {
  /** The file's path relative to the repository. */
  file: string;
  from: string;
  to: string;
}

/**
 * Bundles with edited sources (the files on disk are untouched): the cold start a proposed change
 * would give, measured rather than guessed. Fails when a `from` text is no longer in its file.
 */
export function editSources(edits: readonly SourceEdit[]): Plugin {
  return {
    name: "edit-sources",
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, (args) => {
        const mine = edits.filter((edit) => args.path === join(REPO_DIR, edit.file));
        if (mine.length === 0) return undefined;
        let contents = readFileSync(args.path, "utf8");
        for (const edit of mine) {
          if (contents.split(edit.from).length !== 2) throw new Error(`diagnostic build: ${edit.file} no longer holds ${JSON.stringify(edit.from)} exactly once`);
          contents = contents.replace(edit.from, edit.to);
        }
        return { contents, loader: "ts" };
      });
    },
  };
}

export const CUSTODY_SERVER_ENTRY = join(REPO_DIR, "mcp-server", "src", "cli", "main.ts");
export const EMULATOR_CLI_ENTRY = join(REPO_DIR, "packages", "emulator", "src", "cli.ts");
export const ONE_TOOL_SERVER_ENTRY = fileURLToPath(new URL("../fixtures/one-tool-sdk-server.ts", import.meta.url));
export const MINIMAL_RESPONDER = fileURLToPath(new URL("../fixtures/minimal-stdio-responder.mjs", import.meta.url));
export const BARE_JSON_SERVER = fileURLToPath(new URL("../fixtures/bare-json-server.mjs", import.meta.url));
