// The agent calls a tool of an MCP server the client gave the session (over HTTP, as the agents we test do for
// `"type": "http"` servers): the editor server's tools, or any other. Reports what came back as an agent_message_chunk.
import { appendFileSync } from 'node:fs';
import { McpOverAcpCaller } from '@agentclientprotocol/sdk/unstable';
import type { StepOf } from './stepSchemas';
import { errorMessage, sendText, type StepContext, type StepOutcome } from './context';

/** The MCP revision the request speaks: 2025's stateless JSON-RPC, as today's agents' MCP clients send it. */
const PROTOCOL_VERSION = '2025-06-18';

async function mcpCall(step: StepOf<'mcpCall'>, ctx: StepContext): Promise<StepOutcome> {
  const { tool, server: name = 'vscode-editor', arguments: args = {}, omitHeaders = false, stamp } = step.mcpCall;
  const server = (ctx.session?.mcpServers ?? []).find((s) => s.name === name);
  if (server && (server as { type?: string }).type === 'acp') return overAcp(step, ctx, server as unknown as AcpServer);
  if (!server || !('url' in server)) return void (await sendText(ctx, `[mcp ${tool}: no server ${name}]`));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  if (!omitHeaders) for (const h of server.headers) headers[h.name] = h.value;
  if (step.mcpCall.times) return manyAtOnce(step.mcpCall.times, server.url, headers, tool, args, ctx);
  try {
    const start = performance.now();
    const response = await fetch(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
      signal: ctx.signal,
    });
    if (!response.ok) return void (await sendText(ctx, `[mcp ${tool}: HTTP ${response.status}]`));
    const text = await response.text();
    if (stamp) appendFileSync(stamp.file, `${stamp.name} ${(performance.now() - start).toFixed(2)}\n`);
    // A JSON body, or an event stream whose data line holds it.
    const json = text.startsWith('{')
      ? text
      : (text
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6) ?? '{}');
    const reply = JSON.parse(json) as {
      result?: { content?: { text?: string }[]; isError?: boolean };
      error?: { message?: string };
    };
    if (reply.error) return void (await sendText(ctx, `[mcp ${tool}: error ${reply.error.message}]`));
    const answer = (reply.result?.content ?? []).map((c) => c.text ?? '').join('\n');
    await sendText(ctx, `[mcp ${tool}${reply.result?.isError ? ' refused' : ''}: ${answer}]`);
  } catch (error) {
    await sendText(ctx, `[mcp ${tool}: failed ${errorMessage(error)}]`);
  }
}

/** `times` calls at once; each counted by how it came back. */
async function manyAtOnce(
  times: number,
  url: string,
  headers: Record<string, string>,
  tool: string,
  args: Record<string, unknown>,
  ctx: StepContext,
): Promise<StepOutcome> {
  const counts = { answered: 0, refused: 0, 'HTTP 429': 0, failed: 0 };
  const one = async (id: number) => {
    try {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: tool, arguments: args },
      });
      const response = await fetch(url, { method: 'POST', headers, body, signal: ctx.signal });
      const text = await response.text();
      if (response.status === 429) counts['HTTP 429']++;
      else if (!response.ok || text.includes('"error"')) counts.failed++;
      else if (text.includes('"isError":true')) counts.refused++;
      else counts.answered++;
    } catch {
      counts.failed++;
    }
  };
  await Promise.all(Array.from({ length: times }, (_, i) => one(i + 1)));
  const said = Object.entries(counts).map(([how, n]) => `${n} ${how}`);
  await sendText(ctx, `[mcp ${tool} x${times}: ${said.join(', ')}]`);
}

/** A server the client serves over the ACP connection (MCP-over-ACP, unstable). */
interface AcpServer {
  readonly type: 'acp';
  readonly name: string;
  readonly serverId: string;
}

const caller = new McpOverAcpCaller({ clientInfo: { name: 'vscode-acp-test-agent', version: '1.0.0' } });

/** The same call over `mcp/message`: reported as over HTTP, with `over ACP` in its tag. */
async function overAcp(step: StepOf<'mcpCall'>, ctx: StepContext, server: AcpServer): Promise<StepOutcome> {
  const { tool, arguments: args = {}, stamp } = step.mcpCall;
  try {
    const start = performance.now();
    const outcome = await caller.request(ctx.client, server.serverId, 'tools/call', { name: tool, arguments: args });
    if (stamp) appendFileSync(stamp.file, `${stamp.name} ${(performance.now() - start).toFixed(2)}\n`);
    if ('error' in outcome) return void (await sendText(ctx, `[mcp over ACP ${tool}: error ${outcome.error.message}]`));
    const result = outcome.result as { content?: { text?: string }[]; isError?: boolean } | null;
    const answer = (result?.content ?? []).map((c) => c.text ?? '').join('\n');
    await sendText(ctx, `[mcp over ACP ${tool}${result?.isError ? ' refused' : ''}: ${answer}]`);
  } catch (error) {
    await sendText(ctx, `[mcp over ACP ${tool}: failed ${errorMessage(error)}]`);
  }
}

export const mcpStepHandlers = { mcpCall };
