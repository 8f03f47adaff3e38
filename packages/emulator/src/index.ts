export { startEmulator, type RunningEmulator } from "./emulator.js";
export type { EmulatorOptions, RateLimitOptions, SeedName } from "./options.js";
export { signWebhook, verifyWebhookSignature, SIGNATURE_HEADER } from "./webhooks/webhook-signature.js";
export { FaultSettings } from "./faults/fault-settings.js";
