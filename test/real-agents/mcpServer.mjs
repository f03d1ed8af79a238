/**
 * A minimal stdio MCP server for the real-agents stage: it records that an
 * agent started it (its pid, its arguments, the value of MCP_TEST_TOKEN) in
 * the file named by its first argument, answers `initialize`, `ping` and the
 * list requests (one tool, `acp_test_echo`), refuses any other request, and
 * exits when its stdin closes (the agent went).
 *
 *   node mcpServer.mjs <record.json>
 */
import * as fs from 'node:fs';
import * as readline from 'node:readline';

const [record] = process.argv.slice(2);
const started = {
  pid: process.pid,
  args: process.argv.slice(2),
  token: process.env.MCP_TEST_TOKEN ?? null,
  requests: [],
};
// Whole or not at all (a temporary file renamed into place): the test reads it while the server runs.
const save = () => {
  fs.writeFileSync(`${record}.partial`, JSON.stringify(started));
  fs.renameSync(`${record}.partial`, record);
};
save();

const TOOL = {
  name: 'acp_test_echo',
  description: 'Echoes its text (VS Code ACP tests).',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
};

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: request.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'acp-test-mcp', version: '1.0.0' },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: [TOOL] };
    case 'resources/list':
      return { resources: [] };
    case 'resources/templates/list':
      return { resourceTemplates: [] };
    case 'prompts/list':
      return { prompts: [] };
    case 'tools/call':
      return { content: [{ type: 'text', text: String(request.params?.arguments?.text ?? '') }] };
    default:
      return undefined;
  }
}

readline
  .createInterface({ input: process.stdin })
  .on('line', (line) => {
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      return;
    }
    started.requests.push(request.method);
    save();
    if (request.id === undefined) return; // a notification
    const result = answer(request);
    const reply = result
      ? { jsonrpc: '2.0', id: request.id, result }
      : { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } };
    process.stdout.write(`${JSON.stringify(reply)}\n`);
  })
  .on('close', () => process.exit(0));
