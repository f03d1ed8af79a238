/**
 * Steer, for the agents that take a message into a running turn (Claude Code, Codex; Qwen Code
 * asks for it after a tool batch, so its script adds a tool call to the slow answer): the fake
 * model answers `marker` slowly (half its text, then nothing for `holdMs` or until the agent
 * aborts the request); the test steers `text` into that answer, and the model, asked again with
 * it, answers `reply`. Shared by each agent's script.mjs.
 */
export const STEER = {
  marker: 'Please answer slowly',
  slowReply: 'Thinking about it slowly, still going.',
  holdMs: 60_000,
  text: 'Change of plan: be quick',
  reply: 'Steered: new plan taken.',
};

/** The fake model's rules for STEER (each fake takes `reply` rules with an optional `holdMs`). */
export function steerRules(holdMs = STEER.holdMs) {
  return [
    { marker: STEER.marker, reply: STEER.slowReply, holdMs },
    { marker: STEER.text, reply: STEER.reply },
  ];
}
