/**
 * The editor server's loopback endpoint (src-node/editorEndpoint.ts) against the official MCP conformance suite
 * (npm `@modelcontextprotocol/conformance`, installed into the test cache by the setup and run with its Node 24):
 * the scenarios that apply to a server of read-only tools. The suite's client sends no headers of its own, so a
 * proxy in front adds the session's bearer token and passes every other header as it came (a Host or Origin the suite
 * sends naming the proxy's own address is made the endpoint's; any other, as in the DNS-rebinding scenario, goes as is).
 *
 *   node dist/test/mcpConformance.js <conformance cli.js> <node24> <the suite's server scenarios, comma-separated>
 */
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEditorEndpoint } from '../../src-node/editorEndpoint';
import { TOOL_GROUPS } from '../../src/editorServer/editorTools';

/** The scenarios that apply to the editor server, and why each other one does not. */
export const APPLIES = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
export const DOES_NOT_APPLY: Record<string, string> = {
  'logging-set-level': 'the server offers no logging capability',
  'completion-complete': 'no prompts or resource templates to complete',
  'tools-call-simple-text': "calls the suite's own test tools (test_simple_text...), which this server has not",
  'tools-call-image': "the suite's own test tool; these tools answer text only",
  'tools-call-audio': "the suite's own test tool; these tools answer text only",
  'tools-call-embedded-resource': "the suite's own test tool; these tools answer text only",
  'tools-call-mixed-content': "the suite's own test tool; these tools answer text only",
  'tools-call-with-logging': "the suite's own test tool; no logging",
  'tools-call-error': "the suite's own test tool (its error answer: covered by this project's unit tests)",
  'tools-call-with-progress': "the suite's own test tool; the answers are quick, no progress",
  'tools-call-sampling': 'the server asks the client nothing (no sampling)',
  'tools-call-elicitation': 'the server asks the client nothing (no elicitation)',
  'json-schema-2020-12': "the suite's own test tool with a 2020-12 schema",
  'elicitation-sep1034-defaults': 'no elicitation',
  'elicitation-sep1330-enums': 'no elicitation',
  'server-sse-polling': 'stateless: every answer is one JSON body, no SSE stream to poll',
  'server-sse-multiple-streams': 'stateless: no SSE streams',
  'resources-list': 'no resources',
  'resources-read-text': 'no resources',
  'resources-read-binary': 'no resources',
  'resources-templates-read': 'no resources',
  'resources-subscribe': 'no resources',
  'resources-unsubscribe': 'no resources',
  'prompts-list': 'no prompts',
  'prompts-get-simple': 'no prompts',
  'prompts-get-with-args': 'no prompts',
  'prompts-get-embedded-resource': 'no prompts',
  'prompts-get-with-image': 'no prompts',
};

async function main(): Promise<number> {
  const [cli, node24, listed = ''] = process.argv.slice(2);
  if (!cli || !node24) throw new Error('usage: mcpConformance.js <conformance cli.js> <node24> <scenarios>');
  const unknown = listed.split(',').filter((s) => s && !APPLIES.includes(s) && !(s in DOES_NOT_APPLY));
  if (unknown.length > 0) {
    console.log(`The suite has scenarios this run does not know: ${unknown.join(', ')}. Run them or say why not.`);
    return 1;
  }
  const endpoint = await startEditorEndpoint({
    answer: async (tool) => ({ text: `answer of ${tool.name}` }),
    groups: new Set(TOOL_GROUPS),
    version: '1.0.0',
  });
  const target = new URL(endpoint.url);
  const auth = endpoint.headers[0]!;
  const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, [auth.name.toLowerCase()]: auth.value };
    if (req.headers.host === own) headers.host = target.host;
    if (req.headers.origin === `http://${own}`) headers.origin = target.origin;
    const forward = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const own = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const url = `http://${own}${target.pathname}`;
  let failed = 0;
  try {
    for (const scenario of APPLIES) {
      // Not spawnSync: the proxy and the endpoint answer the suite from this process's event loop.
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(node24, [cli, 'server', '--url', url, '--scenario', scenario], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.stderr.on('data', (d: Buffer) => (text += d.toString()));
        child.on('exit', (c: number | null) => resolve({ code: c, output: text }));
      });
      console.log(`--- ${scenario}: ${code === 0 ? 'passed' : 'FAILED'}\n${output.trim()}`);
      if (code !== 0) failed++;
    }
  } finally {
    proxy.close();
    endpoint.dispose();
  }
  for (const [scenario, why] of Object.entries(DOES_NOT_APPLY)) console.log(`(not run) ${scenario}: ${why}`);
  console.log(`${APPLIES.length - failed} of ${APPLIES.length} scenarios that apply passed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
