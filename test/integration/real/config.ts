/**
 * What test/real-agents/run.mjs hands the in-host tests, as JSON in the
 * extension host's environment (`ACP_REAL_AGENT`): the agent to configure, the
 * fake Anthropic endpoint, and the scripted scenario (see script.mjs).
 */
export interface RealAgentConfig {
  /** The `vscode-acp.agents` entry id and value. */
  readonly agentId: string;
  readonly agent: { name: string; command: string; args: string[]; env: Record<string, string> };
  /** The agent package's version (its `agentInfo.version`). */
  readonly agentVersion: string;
  /** The fake endpoint's base URL; `GET <url>/_fake/log` lists the requests it got. */
  readonly fakeUrl: string;
  readonly scenario: {
    readonly write: { marker: string; tool: string; file: string; content: string; doneText: string; refusedText: string };
    readonly bash: { marker: string; tool: string; command: string; description: string; file: string; fileContent: string; output: string; doneText: string; refusedText: string };
  };
}

export const CONFIG_ENV = 'ACP_REAL_AGENT';

export function realAgentConfig(): RealAgentConfig {
  const raw = process.env[CONFIG_ENV];
  if (!raw) throw new Error(`${CONFIG_ENV} is not set: run these tests through test/real-agents/run.mjs`);
  return JSON.parse(raw) as RealAgentConfig;
}

/** One /v1/messages request as the fake endpoint summarizes it. */
export interface FakeRequest {
  readonly path: string;
  readonly answered?: string;
  readonly tools?: string[];
  readonly lastUserText?: string;
  readonly userTexts?: string[];
  readonly toolResults?: { toolUseId: string; isError: boolean; text: string }[];
}

export async function fakeLog(config: RealAgentConfig): Promise<FakeRequest[]> {
  const response = await fetch(`${config.fakeUrl}/_fake/log`);
  return (await response.json()) as FakeRequest[];
}
