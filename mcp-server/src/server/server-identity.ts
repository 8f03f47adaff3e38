export const SERVER_NAME = "custody-mcp";
export const SERVER_VERSION = "0.1.0";
