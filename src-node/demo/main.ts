/**
 * `node dist/bridge/demo-agent.js`: the Demo Agent over stdio (see demoAgent.ts).
 * Configure it as any agent: `"vscode-acp.agents": { "demo": { "command": "node", "args": [".../demo-agent.js"] } }`.
 */
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { createDemoAgent } from './demoAgent';

const stream = acp.ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
);
// The client went away: nothing left to do.
process.stdout.on('error', () => process.exit(0));
void createDemoAgent()
  .connect(stream)
  .closed.then(() => process.exit(0));
