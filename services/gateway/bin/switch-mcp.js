#!/usr/bin/env node
// The stdio MCP server (`npx switch-mcp`, `npm run mcp`); built by `npm run build`.
require('../dist/mcp/stdio.js');
