import type { XmcpConfig } from "xmcp";

// The port is built in (the built server ignores PORT when the config has one, and the default
// config has 3001): src/main.ts picks a free one and runs the build with it as XMCP_PORT.
const config: XmcpConfig = {
  http: { port: Number(process.env.XMCP_PORT ?? 3001), host: "127.0.0.1", endpoint: "/mcp" },
  paths: { prompts: false, resources: false },
  // The tools import `../upstream.js` as NodeNext wants (tsc typechecks them); rspack resolves
  // it to the .ts file as tsc does.
  bundler: (config: { resolve?: { extensionAlias?: Record<string, string[]> } }) => {
    config.resolve ??= {};
    config.resolve.extensionAlias = { ".js": [".ts", ".js"] };
    return config;
  },
};
export default config;
