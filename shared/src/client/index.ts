export * from "./errors.js";
export * from "./client-options.js";
export * from "./retry-delay.js";
export * from "./page-walk.js";
export * from "./custody-client.js";
export * from "./unless-not-found.js";
export * from "./service-clock.js";
export * from "./bounded-body.js";
