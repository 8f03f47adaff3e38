export * from "./hidden-characters.js";
export * from "./untrusted-text.js";
export * from "./untrusted-value.js";
export * from "./shortened-text.js";
export * from "./error-message.js";
