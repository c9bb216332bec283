// POST /mcp (D36, D37). Owned by the MCP work; until it lands, /mcp is not answered here.
import type { Family } from '../family.js';

export const mcpFamily: Family = {
  name: 'mcp',
  respond: () => null,
  enumerate: () => [],
};
