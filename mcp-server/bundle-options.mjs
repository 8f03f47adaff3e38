// The esbuild options and plugins of build.mjs, in a module of their own so that the benchmarks
// bundle their baselines the same way where they apply (test/bench/support/program-bundles.ts).
import { fileURLToPath } from "node:url";

/** Every bundle: Node 20 ESM, workspace packages from their TypeScript sources. */
export const COMMON_OPTIONS = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["@custody/source"],
  legalComments: "none",
  logLevel: "warning",
  // Some bundled dependencies are CommonJS and call require(); give each ESM output file one.
  banner: { js: 'import { createRequire as __custodyCreateRequire } from "node:module"; const require = __custodyCreateRequire(import.meta.url);' },
};

/**
 * shared/ declares nothing at its top level but constants, schemas and functions: let esbuild leave
 * out (or move to the chunks that use them) the modules of its barrel that the start does not use.
 */
export const sharedWithoutSideEffects = {
  name: "shared-without-side-effects",
  setup(builder) {
    const sharedSources = fileURLToPath(new URL("../shared/src/", import.meta.url));
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "resolving") return undefined;
      const resolved = await builder.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "resolving" });
      if (resolved.errors.length > 0 || !resolved.path.startsWith(sharedSources)) return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

/**
 * zod's 48 locale modules (370 KB, a quarter of the code a start parses) are reachable only through
 * `z.locales`, which nothing here uses: keep English, zod's default (its schemas import it directly).
 */
export const zodEnglishOnly = {
  name: "zod-english-only",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: "js" }));
  },
};

/**
 * The SDK's Server imports Ajv (about 290 KB, 15 to 20 ms of a start) through its runtime shims,
 * for a default validator it builds only when none is given; create-server.ts always gives one
 * (src/server/no-schema-validator.ts), which validates nothing: the form's answer is read by
 * consentFrom. Give the SDK's modules shims whose validator refuses to be built, so Ajv is left out.
 */
export const sdkDefaultValidatorLeftOut = {
  name: "sdk-default-validator-left-out",
  setup(builder) {
    builder.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: "sdk-shims", namespace: "custody-build" }));
    builder.onLoad({ filter: /^sdk-shims$/, namespace: "custody-build" }, () => ({
      contents: [
        'export { default as process } from "node:process";',
        'export class DefaultJsonSchemaValidator { constructor() { throw new Error("custody-mcp bundle: ' +
          'pass jsonSchemaValidator to the Server (the SDK default is left out)"); } }',
      ].join("\n"),
      loader: "js",
    }));
  },
};
