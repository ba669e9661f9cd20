/** JSON-RPC codes an upstream MCP server uses for "rate limited": SEP-3304 and common practice. */
export const RATE_LIMIT_RPC_CODES: ReadonlySet<number> = new Set([-32023, -32029, -31029]);
