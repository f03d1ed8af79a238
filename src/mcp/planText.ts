/** A plan in words for the chat and the log: codes and positions, never names or values. */
import type { McpPlan } from './mcpPlan';
import { problemText, type McpProblem } from './problems';

/** Every reason a server or source is not used, in order. */
export function planProblems(plan: McpPlan): McpProblem[] {
  return [
    ...plan.sources.flatMap((s) => (s.problem ? [s.problem] : [])),
    ...plan.entries.flatMap((e) => (e.state === 'left out' && e.problem ? [e.problem] : [])),
  ];
}

const NOTICE_LINES = 4;

/** The chat's notice when something is left out; undefined when nothing is. */
export function planNotice(plan: McpPlan): string | undefined {
  const problems = planProblems(plan);
  if (problems.length === 0) return undefined;
  const shown = problems.slice(0, NOTICE_LINES).map(problemText);
  const more = problems.length > NOTICE_LINES ? `\n…and ${problems.length - NOTICE_LINES} more.` : '';
  const sent = plan.servers.length === 1 ? '1 MCP server was sent' : `${plan.servers.length} MCP servers were sent`;
  return `${sent} to the agent; some were left out (ACP: Show MCP Servers lists them all):\n${shown.join('\n')}${more}`;
}

/** One log line: counts and codes, no names. */
export function planSummary(plan: McpPlan): string {
  const codes = planProblems(plan).map((p) => p.code);
  return `MCP servers: ${plan.servers.length} sent${codes.length ? `; left out: ${codes.join(', ')}` : ''}`;
}
