// What only some runs of the command need: the Streamable HTTP transport (--http) with its warm-up, and the audit
// commands (verify-audit, reseal-audit, export-audit). One module, imported on demand by main.ts: a stdio start loads none of it.
export { exportAuditCommand } from "../audit/export-audit-command.js";
export { resealAuditCommand } from "../audit/reseal-audit-command.js";
export { verifyAuditCommand } from "../audit/verify-audit-command.js";
export { startHttpServer } from "../transport/http-server.js";
export { warmUp } from "../on-demand/warm-up.js";
