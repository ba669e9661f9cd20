// Every entry's declarations under the minimum TypeScript, with skipLibCheck off.
import * as client from "mcp-upstream-throttle/client";
import * as main from "mcp-upstream-throttle";
import * as testing from "mcp-upstream-throttle/testing";
import * as node from "mcp-upstream-throttle/testing/node";
import * as zod from "mcp-upstream-throttle/zod";
import * as zod3 from "mcp-upstream-throttle/zod3";

export const loaded = [main, client, testing, node, zod, zod3].length;
