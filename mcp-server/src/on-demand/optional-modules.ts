// What only some starts need: the embedded emulator (no base URL), the Streamable HTTP transport
// (--http) with its warm-up, and the audit commands (verify-audit, export-audit). One module, imported on demand (see
// call-time-modules.ts).
export { exportAuditCommand } from "../audit/export-audit-command.js";
export { resealAuditCommand } from "../audit/reseal-audit-command.js";
export { verifyAuditCommand } from "../audit/verify-audit-command.js";
export { startEmbeddedWorkspace } from "../embedded/embedded-workspace.js";
export { startHttpServer } from "../transport/http-server.js";
export { warmUp } from "./warm-up.js";
