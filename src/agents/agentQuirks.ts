/**
 * What known agents get wrong, and the client works around, or take beyond
 * what they can advertise: one entry per quirk, keyed by the agent's
 * `agentInfo.name` (its initialize answer), each
 * with the agent's version it was seen in and why, and a test
 * (test/unit/src/agents/agentQuirks.test.ts). A new quirk: its flag in AgentQuirks, its
 * entry in KNOWN_QUIRKS, its test, and the work-around where the flag is read.
 */

export interface AgentQuirks {
  /**
   * The agent drops the images of a prompt that also has `resource` blocks:
   * such a prompt sends its embedded text as fenced text instead, so that
   * the image arrives (attachments/promptBlocks.ts).
   */
  readonly resourcesDropImages: boolean;
  /**
   * The agent's `session/fork` (unstable) takes a point to fork at, `_meta.jetbrains.air.fork = {version: 1,
   * messageId}`, an id of its messages (ACP has no such field yet, and no capability says it): Edit, Retry and Branch
   * fork its session there (chat/rewindCut.ts). Another agent's fork is whole.
   */
  readonly forksAtMessage: boolean;
  /**
   * The agent takes steered messages by asking for them (`craft/drainMidTurnQueue`, between its tool batches)
   * instead of advertising `_session/steering`: Steer holds the message until it asks (connection/steering.ts).
   */
  readonly pullsSteering: boolean;
}

export const NO_QUIRKS: AgentQuirks = { resourcesDropImages: false, forksAtMessage: false, pullsSteering: false };

interface KnownQuirk {
  /** `agentInfo.name`, as the agent sends it. */
  readonly agent: string;
  readonly quirk: keyof AgentQuirks;
  /** Where it was seen, and what goes wrong. */
  readonly why: string;
}

const KNOWN_QUIRKS: readonly KnownQuirk[] = [
  {
    agent: '@agentclientprotocol/claude-agent-acp',
    quirk: 'forksAtMessage',
    why: "Claude Code's adapter 0.101 (dist/fork-session.js): the fork holds the conversation up to and including that message.",
  },
  {
    agent: '@agentclientprotocol/codex-acp',
    quirk: 'forksAtMessage',
    why: 'codex-acp 2.6 (SessionFork): the fork holds the turns up to and including the one with that message.',
  },
  {
    agent: 'gemini-cli',
    quirk: 'resourcesDropImages',
    why: 'Gemini CLI 0.61: its prompt resolver rebuilds the parts from the text and the files only, so images beside resources are lost.',
  },
  {
    agent: 'qwen-code',
    quirk: 'pullsSteering',
    why: 'Qwen Code 0.24 (acp-integration Session): asks the client for queued messages after each tool batch, advertises nothing; a -32601 answer turns it off for the session.',
  },
];

/** The quirks of the agent named `name` (none for an agent not listed, or one that gives no name). */
export function quirksOf(name: string | undefined): AgentQuirks {
  const quirks: { -readonly [K in keyof AgentQuirks]: AgentQuirks[K] } = { ...NO_QUIRKS };
  for (const known of KNOWN_QUIRKS) if (known.agent === name) quirks[known.quirk] = true;
  return quirks;
}
