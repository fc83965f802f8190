import { setting, settings } from '@switch/platform/config/env';

/** `switch-mcp`, the MCP server over stdio for desktop agents. */
export const McpSettings = settings(
  {
    url: setting.string('SWITCH_URL', 'http://127.0.0.1:3000', 'the merchant API the MCP server talks to'),
    key: setting.optionalString('SWITCH_KEY', "the merchant's `x-switch-key` (`<merchant>:sk_test_...`); required"),
  },
  'MCP over stdio (`npm run mcp`)',
);
