/** Reading the test agent's `report mcp` answer. */
import * as assert from './assert';

/** The test agent's `[mcp: JSON]` reply. */
export function reportedMcp(
  reply: string,
): { name: string; command?: string; url?: string; env?: string[]; headers?: string[] }[] {
  const match = /\[mcp: (.*)\]$/s.exec(reply);
  assert.ok(match, `an MCP report: ${reply.slice(0, 300)}`);
  return JSON.parse(match![1]);
}

export async function digest(value: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
  return [...bytes]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 12);
}
