import type { BuildOptions, Plugin } from "esbuild";

export declare const COMMON_OPTIONS: BuildOptions;
export declare const sharedWithoutSideEffects: Plugin;
export declare const zodEnglishOnly: Plugin;
export declare const sdkDefaultValidatorLeftOut: Plugin;
