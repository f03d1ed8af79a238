import * as assert from 'node:assert/strict';
import { parseMcpJson } from '../../../../src/mcp/mcpJson';
import { planMcp, type McpSourceRead } from '../../../../src/mcp/mcpPlan';
import { planNotice, planProblems, planSummary } from '../../../../src/mcp/planText';
import { problemText } from '../../../../src/mcp/problems';
import { readServer, settingServers } from '../../../../src/mcp/serverConfig';
import { hostileCorpus } from './mcpCorpus';

const STRUCTURED =
  /^\[MCP_[A-Z_]+\] (\.vscode\/mcp\.json|user:vscode-acp\.mcpServers)(\[\d+\]|\[property \d+\]|\.[a-z]+)* [a-z]/;

describe('MCP servers: a hostile corpus', () => {
  it('>= 300 hostile mcp.json files and settings: no crash, every problem structured, nothing they wrote echoed', () => {
    const corpus = hostileCorpus();
    assert.ok(corpus.length >= 300, `${corpus.length} cases`);
    let refused = 0;
    const accepted: string[] = [];
    let problems = 0;
    let slowest = { label: '', ms: 0 };
    for (const c of corpus) {
      const started = performance.now();
      let source: McpSourceRead;
      if (c.kind === 'file') source = parseMcpJson(c.bytes);
      else {
        const read = settingServers(c.value, 'user:vscode-acp.mcpServers');
        source = read.ok
          ? { id: 'user', servers: read.servers.map((s) => readServer(s.value, s.at)) }
          : { id: 'user', problem: read.problem };
      }
      const plan = planMcp([source], {
        agent: { http: true, sse: true },
        agentKnown: true,
        os: 'posix',
        env: (name) => (name.includes('UNSET') ? undefined : `value-of-${name}`),
      });
      const texts = [...planProblems(plan).map(problemText), planNotice(plan) ?? '', planSummary(plan)];
      for (const p of planProblems(plan)) assert.match(problemText(p), STRUCTURED, c.label);
      for (const t of texts) assert.ok(!/canary/i.test(t), `${c.label}: echoed: ${t.slice(0, 300)}`);
      if (planProblems(plan).length > 0) refused++;
      else accepted.push(c.label);
      problems += planProblems(plan).length;
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { label: c.label, ms };
    }
    assert.equal(({} as Record<string, unknown>).CANARY, undefined, 'no prototype was touched');
    assert.deepEqual(accepted, [], 'every case is refused, at least in part');
    console.log(
      `      ${corpus.length} cases, ${refused} refused with ${problems} structured problems, 0 crashes, 0 echoes; slowest ${slowest.ms.toFixed(1)} ms (${slowest.label})`,
    );
  });
});
