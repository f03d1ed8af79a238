/**
 * What test/real-agents/run.mjs hands the in-host tests, as JSON in the
 * extension host's environment (`ACP_REAL_AGENT`): the agent to configure,
 * its fake model endpoint, the steps it plays and what to expect of it (see
 * test/real-agents/agents.mjs).
 */
import * as fs from 'fs';

export interface RealAgentConfig {
  /** The `vscode-acp.agents` entry id and value. */
  readonly agentId: string;
  readonly agent: { name: string; command: string; args: string[]; env: Record<string, string> };
  /** The fake endpoint's base URL; `GET <url>/_fake/log` lists the requests it got. */
  readonly fakeUrl: string;
  /** An environment variable (NAME=value) every process of this agent carries, to find them. */
  readonly runMark: string;
  readonly scenario: {
    readonly reply: { prompt: string; text: string };
    readonly create: { marker: string; file: string; content: string; doneText: string };
    readonly edit?: { marker: string; file: string; before: string; after: string; doneText: string };
    /** An existing file written whole, its old text not sent (Claude Code's Write on ACP v1). */
    readonly rewrite?: { marker: string; file: string; before: string; after: string; doneText: string };
    readonly shell: { marker: string; command: string; file: string; fileContent: string; doneText: string };
    readonly refuse: { marker: string; file: string };
    /**
     * Agents that steer: `marker` starts an answer that waits; `text` steered into it makes the model answer `reply`
     * in the same turn. `pulled`: the agent asks for a steered message after a tool batch (Qwen Code), so the answer
     * calls a tool after its slow text, and the message goes in after that call.
     */
    readonly steer?: { marker: string; text: string; reply: string; pulled?: boolean };
    /** Agents whose model can ask the user (Claude Code's AskUserQuestion): `marker` makes it ask `question`, picking one of `options`; picked Green, the model says `answered`. */
    readonly ask?: { marker: string; question: string; options: string[]; answered: string };
    /**
     * Agents that take more folders (`additionalDirectories`): in a window of two folders, `marker` makes the model
     * read `file` of the second folder (its text: `content`), and it says `doneText`.
     */
    readonly readSecond?: { marker: string; file: string; content: string; doneText: string };
    /**
     * Agents with subagents (Claude Code's Agent tool): `marker` makes the model start one for `prompt`; the subagent
     * answers `text`, and the main agent then says `doneText`.
     */
    readonly subagent?: { marker: string; description: string; prompt: string; text: string; doneText: string };
    /**
     * Agents that report a plan's rate limits (Claude Code): with `env` laid over the agent's own (signed in to a
     * plan), the answer to `marker` reports the 5-hour window at `fiveHour` (near its limit) and the 7-day at `sevenDay`.
     */
    readonly rateLimits?: {
      marker: string;
      text: string;
      env: Record<string, string>;
      fiveHour: number;
      sevenDay: number;
    };
    /**
     * The editor server (test/real-agents/editorScript.mjs): `marker` makes the model call its `problems` on `typed`
     * (a TS2322 at line 2), then its `definition` at `definitionAt` (the class of `greeter`), each through the agent's
     * own MCP client, then fix the error with the agent's edit tool (`wrong` to `right`: `typed.fixed` on disk).
     */
    readonly editor?: {
      marker: string;
      greeter: { file: string; content: string };
      typed: { file: string; content: string; fixed: string };
      definitionAt: { line: number; character: number };
      wrong: string;
      right: string;
      /** Why this agent's model cannot call the editor server's tools (the test is skipped, saying so). */
      skip?: string;
    };
    /** A command still running when the test disconnects; `process`: the command line of the process it starts (`timeout 37 tail -f README.md`). */
    readonly long: { marker: string; process: string };
  };
  readonly expect: {
    readonly label: string;
    readonly switches: readonly (
      | { kind: 'config'; id: string; value: string; requestModel?: string }
      | { kind: 'mode' | 'model'; value: string; requestModel?: string }
    )[];
    readonly continuation: 'resumed' | 'loaded';
    /** The agent lists its sessions (`session/list`): the Sessions tree shows this chat's from the agent's own listing. */
    readonly lists: boolean;
    /** A second `session/load` of the same session gives the model only the turns since the first load (Gemini CLI 0.61). */
    readonly secondLoadForgets?: boolean;
    /** The agent cannot load a session in the (UTC) minute it began (Gemini CLI 0.61): wait for the next. */
    readonly loadInNewMinute?: boolean;
    /** The agent forks its session at a message (Edit, Retry, Branch: chat/rewindCut.ts); else they give a new session the earlier turns. */
    readonly forksAtMessage?: boolean;
    /** The agent takes more folders (`additionalDirectories`): a window of two folders is run too (folders.test.ts). */
    readonly takesFolders?: boolean;
    /** The agent stores a title the user gives a session (`session/set_title`): Rename reaches it. */
    readonly storesTitles?: boolean;
    /** The agent takes embedded files and images (`promptCapabilities`), and the test checks that its model gets them. */
    readonly attachments?: boolean;
    /**
     * With `env` laid over its own, the agent answers "authentication required" to a new session
     * (or, `atPrompt`, to the first prompt, as Claude Code does): the chat offers `methods` (names).
     */
    readonly signIn?: { env: Record<string, string>; methods: string[]; atPrompt?: boolean };
  };
}

export const CONFIG_ENV = 'ACP_REAL_AGENT';

export function realAgentConfig(): RealAgentConfig {
  const raw = process.env[CONFIG_ENV];
  if (!raw) throw new Error(`${CONFIG_ENV} is not set: run these tests through test/real-agents/run.mjs`);
  return JSON.parse(raw) as RealAgentConfig;
}

/** One model request as the fake endpoint summarizes it. */
export interface FakeRequest {
  readonly path: string;
  readonly model?: string;
  readonly answered?: string;
  readonly lastUserText?: string;
  readonly userTexts?: string[];
  readonly toolResults?: { isError: boolean; text: string }[];
  /** Claude's fake only: the images of the last user message. */
  readonly lastUserImages?: { mediaType?: string; data?: string }[];
}

/** The agents of the side-by-side run (test/real-agents/worktreePair.mjs), each as one agent's run has it. */
export function realAgentPair(): RealAgentConfig[] {
  const raw = process.env.ACP_REAL_PAIR;
  if (!raw) throw new Error('ACP_REAL_PAIR is not set: run these tests through test/real-agents/run.mjs');
  return JSON.parse(raw) as RealAgentConfig[];
}

export async function fakeLog(config: RealAgentConfig): Promise<FakeRequest[]> {
  const response = await fetch(`${config.fakeUrl}/_fake/log`);
  return (await response.json()) as FakeRequest[];
}

/** Live processes whose command line is `command` (Linux; zombies are gone already). */
export function commandPids(command: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === command) {
        pids.push(Number(name));
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** Live processes that carry the run's mark in their environment: the agent and what it started (Linux). */
export function agentPids(config: RealAgentConfig): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(config.runMark)) {
        pids.push(Number(name));
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}
