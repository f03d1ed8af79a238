/**
 * Proof outside VS Code: a plain ACP SDK client drives Qwen Code (`qwen --acp`, agent.mjs) through
 * the real-agent scenario against the fake Chat Completions endpoint (sdkProof.mjs says which
 * steps), and looks at what is Qwen Code's own:
 *
 * - after each tool run, before it asks the model again, it asks the client for the messages the
 *   user queued meanwhile (`craft/drainMidTurnQueue {sessionId, todoStopGuardWatchQueuedPrompt}`,
 *   answered `{messages: string[], hasQueuedPrompt}`; a -32601 answer turns it off for the
 *   session). That is how it steers: a message handed over there reaches the model in the same
 *   turn, as a user message after the tool result ("[User message received during tool
 *   execution]: ..."); checked here with one more turn;
 * - it writes files only through `fs/write_text_file` (WRITE=skip: the new file is missing).
 *
 *   node test/real-agents/qwen/sdkClient.mjs     # VERBOSE=1, WRITE=skip, KEEP=1 (see sdkProof.mjs)
 *
 * Exit code 0 when every expectation held.
 */
import { REAL_AGENTS } from '../agents.mjs';
import { sdkProof } from '../sdkProof.mjs';
import { STEER } from '../steerScript.mjs';

/** What the user queued, handed over at the next drain. */
const queued = [];
const drains = [];
const proof = await sdkProof(REAL_AGENTS.qwen, {
  onRequest: {
    'craft/drainMidTurnQueue': (params) => {
      drains.push(params);
      return { messages: queued.splice(0), hasQueuedPrompt: false };
    },
  },
});
const { expect, say, scenario: s } = proof;
try {
  await proof.play(
    (step, got) => {
      if (step !== 'shell') return;
      const drain = got.events.find((e) => e.method === 'craft/drainMidTurnQueue');
      expect(!!drain, `a command: after it ran, the queue was asked for (${JSON.stringify(drain?.params)})`);
    },
    async (agent, sessionId) => {
      // The user queues a message while the command runs: it reaches the model in the same turn.
      queued.push(STEER.text);
      const got = await proof.turn(agent, sessionId, s.shell.marker);
      const after = got.requests.at(-1);
      say(`  the request after the command: last ${after?.lastRole}, ${JSON.stringify(after?.lastUserText)}`);
      expect(
        after?.lastRole === 'user' && after.lastUserText.includes(STEER.text) && after.toolResults.length > 0,
        'a message handed over at the drain reaches the model after the tool result, in the same turn',
      );
    },
  );
  say(`craft/drainMidTurnQueue asked ${drains.length} time(s)`);
} catch (error) {
  expect(false, `the scenario ran: ${error?.stack ?? error}`);
}
process.exit(await proof.finish());
