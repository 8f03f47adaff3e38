#!/usr/bin/env node
import "../dist/custody-mcp.js";
