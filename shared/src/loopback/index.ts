export * from "./local-origin.js";
export * from "./local-secret.js";
export * from "./emulator-key-header.js";
