export * from "./untrusted-text.js";
