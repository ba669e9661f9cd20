// The SDK 1.x and 2.x clients over stdio, the server a real child process (the cells in
// helpers/sdk-cells.ts).

import { describeSdkCells } from "./helpers/sdk-cells.js";
import { useServers } from "./helpers/use-servers.js";

describeSdkCells(useServers(), [
  ["sdk-1.x", "stdio"],
  ["sdk-2.x", "stdio"],
]);
