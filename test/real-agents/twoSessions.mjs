/**
 * Can the agent hold two sessions on one process? Chats with the same agent
 * are to share its process (issue 12), so this is checked for each real
 * agent with a plain SDK client, outside VS Code: `initialize`, two
 * `session/new`, both prompted at once with the scenario's reply prompt;
 * each session must get the whole reply, on its own id, and both turns end.
 *
 *   const problem = await checkTwoSessions(REAL_AGENTS.opencode);   // undefined when it held
 */
import * as acp from '@agentclientprotocol/sdk';
import { CLIENT_CAPABILITIES, connectAgent } from './sdkConnection.mjs';

const TIMEOUT_MS = 60_000;

/** Undefined when the agent held both sessions apart; else what went wrong. */
export async function checkTwoSessions(spec) {
  const texts = new Map();
  const { connection, workspace, close } = await connectAgent(spec, {
    name: 'vscode-acp-two-sessions',
    onUpdate: (sessionId, u) => {
      if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') {
        texts.set(sessionId, (texts.get(sessionId) ?? '') + u.content.text);
      }
    },
  });
  let timer;
  const timeout = new Promise(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS)),
  );
  try {
    return await Promise.race([
      timeout,
      (async () => {
        await connection.agent.request('initialize', {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: CLIENT_CAPABILITIES,
        });
        const ids = [];
        for (let i = 0; i < 2; i++) {
          ids.push((await connection.agent.request('session/new', { cwd: workspace, mcpServers: [] })).sessionId);
        }
        if (ids[0] === ids[1]) return `both sessions got the id ${ids[0]}`;
        const { reply } = spec.scenario(workspace);
        const answers = await Promise.all(
          ids.map((sessionId) =>
            connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: reply.prompt }] }),
          ),
        );
        // The last chunks of a turn can arrive after its answer (seen with real agents): a moment for them.
        await new Promise((r) => setTimeout(r, 300));
        const wrong = ids.filter((id, i) => answers[i].stopReason !== 'end_turn' || texts.get(id) !== reply.text);
        return wrong.length
          ? `session ${wrong.join(', ')}: ${wrong.map((id) => JSON.stringify(texts.get(id) ?? '')).join(', ')} (expected ${JSON.stringify(reply.text)})`
          : undefined;
      })(),
    ]);
  } catch (error) {
    return error.message;
  } finally {
    clearTimeout(timer);
    await close();
  }
}
