/**
 * The Demo Agent: a small ACP agent that needs no model and no account, so
 * that the chat can be tried on a machine with no real agent (`npm start`
 * offers it, and `vscode-acp-bridge -- node demo-agent.js` serves it to VS
 * Code for the Web). It answers from a script, as an agent would: a thought,
 * a streamed Markdown answer, slash commands, a slow answer to try Stop on,
 * and a file read that asks for permission first.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';

export const DEMO_AGENT_INFO = { name: 'demo-agent', title: 'Demo Agent', version: '1.0.0' } as const;

/** How the streamed answers are paced (the tests shorten it). */
export interface DemoPace {
  /** Milliseconds between two chunks of an ordinary answer. */
  readonly chunkMs: number;
  /** Milliseconds between two chunks of the slow answer. */
  readonly slowChunkMs: number;
}

const PACE: DemoPace = { chunkMs: 25, slowChunkMs: 150 };

const COMMANDS: acp.AvailableCommand[] = [
  { name: 'slow', description: 'A long, slow answer, to try Stop' },
  { name: 'read', description: 'Read the start of a file of the workspace (asks first)', input: { hint: 'path' } },
];

const HELLO = [
  'Hello! I am the **Demo Agent**: a real ACP agent that plays a script instead of calling a model, ',
  'so that you can try the chat before you install one.\n\n',
  '- `/read README.md` reads the start of a file of this folder, after asking you.\n',
  '- `/slow` gives a long, slow answer: press **Stop** to cancel it.\n\n',
  'To talk to a real agent, install one (OpenCode, Claude Code, Gemini CLI or Codex) and pick it in the list, ',
  'or add your own in the `vscode-acp.agents` setting.',
].join('');

const SLOW_SENTENCE = 'This is a long, slow answer. Press Stop to cancel it. ';
const SLOW_CHUNKS = 200;
/** Lines of a file that `/read` shows. */
const READ_LINES = 12;

interface Session {
  readonly cwd: string;
  /** Aborted by session/cancel: the running turn stops. */
  turn?: AbortController;
}

/** The Demo Agent's app, to connect to a stream (stdio in demo/main.ts). */
export function createDemoAgent(pace: DemoPace = PACE): acp.AgentApp {
  const sessions = new Map<string, Session>();
  let readsFiles = false;

  const play = async (c: acp.AgentRequestContext<acp.PromptRequest>, session: Session, signal: AbortSignal) => {
    const update = (update: acp.SessionUpdate) =>
      c.client.notify('session/update', { sessionId: c.params.sessionId, update });
    const say = (text: string) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    const think = (text: string) => update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } });
    const stream = async (pieces: string[], ms: number) => {
      for (const piece of pieces) {
        if (signal.aborted) return;
        await say(piece);
        await delay(ms, signal);
      }
    };
    const text = promptText(c.params.prompt).trim();
    const command = /^\/(\w+)\s*(.*)$/s.exec(text);
    if (command?.[1] === 'slow' || /\b(stop|slow|long)\b/i.test(text)) {
      await think('A long answer, so that you can try the Stop button.');
      await stream(
        Array.from({ length: SLOW_CHUNKS }, () => SLOW_SENTENCE),
        pace.slowChunkMs,
      );
    } else if (command?.[1] === 'read') {
      await readFile(c, session, command[2]!.trim() || 'README.md', readsFiles, update);
    } else {
      await think('I am the scripted Demo Agent: I give the same answer to every prompt.');
      await stream(words(HELLO), pace.chunkMs);
    }
  };

  return acp
    .agent({ name: DEMO_AGENT_INFO.name })
    .onRequest('initialize', ({ params }) => {
      readsFiles = params.clientCapabilities?.fs?.readTextFile === true;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: { loadSession: false, promptCapabilities: { embeddedContext: true } },
        agentInfo: DEMO_AGENT_INFO,
        authMethods: [],
      };
    })
    .onRequest('session/new', (c) => {
      const sessionId = `demo-${randomUUID()}`;
      sessions.set(sessionId, { cwd: c.params.cwd });
      // After the answer: the client knows the session by then.
      setTimeout(() => {
        void c.client
          .notify('session/update', {
            sessionId,
            update: { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS },
          })
          .catch(() => undefined);
      });
      return { sessionId };
    })
    .onRequest('session/prompt', async (c) => {
      const session = sessions.get(c.params.sessionId);
      if (!session) throw acp.RequestError.sessionNotFound(c.params.sessionId);
      session.turn?.abort();
      const turn = new AbortController();
      session.turn = turn;
      try {
        await play(c, session, turn.signal);
      } finally {
        if (session.turn === turn) session.turn = undefined;
      }
      return { stopReason: turn.signal.aborted ? 'cancelled' : 'end_turn' };
    })
    .onRequest('session/close', ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
      sessions.delete(params.sessionId);
      return {};
    })
    .onNotification('session/cancel', ({ params }) => sessions.get(params.sessionId)?.turn?.abort());
}

/** `/read PATH`: a read tool call that asks first, then shows the start of the file (the client reads it). */
async function readFile(
  c: acp.AgentRequestContext<acp.PromptRequest>,
  session: Session,
  relative: string,
  readsFiles: boolean,
  update: (update: acp.SessionUpdate) => Promise<void>,
): Promise<void> {
  const say = (text: string) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  if (!readsFiles) {
    return say(
      'The editor did not offer to read files for agents (one whose folder is not trusted does not), so I cannot show one.',
    );
  }
  // The client decides what an agent may read (the extension: only inside the workspace).
  const file = path.resolve(session.cwd, relative);
  const toolCallId = `read-${randomUUID()}`;
  const toolCall = { toolCallId, title: `Read ${relative}`, kind: 'read' as const, locations: [{ path: file }] };
  await update({ sessionUpdate: 'tool_call', ...toolCall, status: 'pending' });
  const ask: acp.RequestPermissionRequest = {
    sessionId: c.params.sessionId,
    toolCall,
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  };
  const answer = await c.client.request('session/request_permission', ask);
  if (answer.outcome.outcome !== 'selected' || answer.outcome.optionId !== 'allow') {
    await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return say('You said no, so I did not read it.');
  }
  await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  try {
    const { content } = await c.client.request('fs/read_text_file', {
      sessionId: c.params.sessionId,
      path: file,
      line: 1,
      limit: READ_LINES,
    });
    await update({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: content } }],
    });
    await say(`The first ${READ_LINES} lines of \`${relative}\` are in the card above.`);
  } catch (error) {
    await update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    await say(`I could not read \`${relative}\`: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function promptText(prompt: readonly acp.ContentBlock[]): string {
  return prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** `text` in pieces of a word or so, as a model streams it. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
