// Prints the partition this process stores a Basic-authenticated throttle under (no
// partitionSecret): run as a second process by partitions.test.ts.

import { type CooldownStore, throttledFetch } from "../../src/index.js";

const keys: string[] = [];
const store: CooldownStore = {
  shared: false,
  get: () => undefined,
  set: (key) => void keys.push(key),
};
const api = throttledFetch({ limit: "search", cooldown: { store } });
const auth = `Basic ${Buffer.from("alice:hunter2").toString("base64")}`;
await api(process.argv[2] ?? "", { headers: { authorization: auth } }).catch(() => {});
console.log(keys[0]?.split("|")[1] ?? "");
process.exit(0); // the keep-alive connection to the upstream would hold the process
