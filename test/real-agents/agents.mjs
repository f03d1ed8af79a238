/**
 * The real agents the `real-agents` stage runs through the extension, each against its own fake
 * model endpoint, with what the in-host suite (test/integration/real/agent.test.ts) needs to know
 * about it as plain data.
 *
 * Each agent has:
 * - `install()`: idempotent, into the test cache;
 * - `start({ workspace, log })`: starts its fake model and makes its throwaway HOME; returns
 *   `{ agent: { command, args, env }, version, fake, home }` (the caller closes `fake` and removes `home`);
 * - `scenario(workspace)`: the same steps for every agent, each played by that agent's own tools:
 *   `reply` (a text), `create` (a new file), `edit` (an existing file, when the agent's fake
 *   script has one), `shell` (a command that writes a file), `refuse` (a command the test rejects),
 *   `long` (a command still running when the test disconnects), `editor` (the editor server's
 *   problems and definition through the agent's MCP client, then a fix: editorScript.mjs);
 * - `expect`: how the chat should call it (`label`), which controls the test changes (`switches`:
 *   a config option, a legacy mode or a legacy model, and the model name the next request must
 *   name), and how it continues a session after a reconnect (`continuation`; `loadInNewMinute`:
 *   the agent cannot load a session in the minute it began, see gemini/README.md; `lists`: it
 *   lists its sessions, so the Sessions tree must show this one from its listing; `signIn`: with
 *   this environment the agent needs a sign-in, and these are the methods the chat must offer).
 */
import * as claude from './claudeAgent.mjs';
import * as claudeScript from './script.mjs';
import { startFakeAnthropic } from './fakeAnthropic.mjs';
import * as opencode from './opencode/agent.mjs';
import * as opencodeScript from './opencode/script.mjs';
import { startFakeModel as startFakeChatCompletions } from './opencode/fakeModel.mjs';
import * as codex from './codex/agent.mjs';
import * as codexScript from './codex/script.mjs';
import { startFakeModel as startFakeResponses } from './codex/fakeModel.mjs';
import * as gemini from './gemini/agent.mjs';
import * as geminiScript from './gemini/script.mjs';
import { startFakeModel as startFakeGemini } from './gemini/fakeModel.mjs';
import * as qwen from './qwen/agent.mjs';
import * as qwenScript from './qwen/script.mjs';
import * as kilo from './kilo/agent.mjs';
import * as kiloScript from './kilo/script.mjs';

/** The steps every agent plays, from an agent's own script (see each script.mjs); `editor` as editorScript.mjs has it. */
function steps({ editor, ...s }) {
  const { reply, create, edit, rewrite, shell, refuse, long, steer, ask, readSecond, subagent, rateLimits } = s;
  return {
    ...(editor ? { editor } : {}),
    ...(rewrite
      ? {
          rewrite: {
            marker: rewrite.marker,
            file: rewrite.file,
            before: rewrite.original,
            after: rewrite.rewritten,
            doneText: rewrite.doneText,
          },
        }
      : {}),
    ...(readSecond ? { readSecond } : {}),
    ...(subagent ? { subagent } : {}),
    ...(rateLimits ? { rateLimits } : {}),
    ...(ask
      ? {
          ask: {
            marker: ask.marker,
            question: ask.question,
            options: ask.options,
            answered: ask.answeredText('Green'),
          },
        }
      : {}),
    ...(steer
      ? {
          steer: {
            marker: steer.marker,
            text: steer.text,
            reply: steer.reply,
            ...(steer.pulled ? { pulled: true } : {}),
          },
        }
      : {}),
    reply: { prompt: reply.prompt, text: reply.text },
    create: { marker: create.marker, file: create.file, content: create.content, doneText: create.doneText },
    ...(edit
      ? {
          edit: {
            marker: edit.marker,
            file: edit.file,
            before: edit.before,
            after: edit.after,
            doneText: edit.doneText,
          },
        }
      : {}),
    shell: {
      marker: shell.marker,
      command: shell.command,
      file: shell.file,
      fileContent: shell.fileContent,
      doneText: shell.doneText,
    },
    refuse: { marker: refuse.marker, file: refuse.file },
    long: { marker: long.marker, process: long.process },
  };
}

/** What the chat should see of Claude Code (`expect`, as the header says). */
const CLAUDE_EXPECT = {
  label: `Claude Agent ${claude.CLAUDE_AGENT_VERSION}`,
  takesFolders: true,
  forksAtMessage: true,
  switches: [
    { kind: 'config', id: 'model', value: 'haiku', requestModel: 'haiku' },
    { kind: 'config', id: 'mode', value: 'plan' },
    { kind: 'config', id: 'mode', value: 'default' },
  ],
  continuation: 'resumed',
  lists: true,
  attachments: true,
  // Without a key it opens sessions and refuses the first prompt: the chat's Sign in offers its terminal logins.
  signIn: { env: { ANTHROPIC_API_KEY: '' }, methods: ['Claude Subscription', 'Anthropic Console'], atPrompt: true },
};

export const REAL_AGENTS = {
  claude: {
    name: 'Claude Code',
    install: claude.installClaudeAgent,
    async start({ workspace, log }) {
      const fake = await startFakeAnthropic({ rules: claudeScript.scriptRules(workspace), log });
      const home = await claude.makeAgentHome();
      return {
        fake,
        home,
        version: claude.CLAUDE_AGENT_VERSION,
        agent: {
          command: claude.CLAUDE_AGENT_NODE,
          args: [claude.CLAUDE_AGENT_ENTRY],
          env: claude.claudeAgentEnv({ home, baseUrl: fake.url }),
        },
      };
    },
    scenario(workspace) {
      const s = claudeScript.scenario(workspace);
      return steps({
        reply: s.reply,
        create: s.write,
        edit: { ...s.edit, before: s.edit.original, after: s.edit.edited },
        rewrite: s.rewrite,
        shell: s.bash,
        refuse: s.refuse,
        long: s.long,
        steer: s.steer,
        ask: s.ask,
        readSecond: s.readSecond,
        subagent: s.subagent,
        rateLimits: s.rateLimits,
        editor: s.editor,
      });
    },
    expect: CLAUDE_EXPECT,
  },
  // Claude Code's adapter again, asked for ACP v2 (`vscode-acp.protocol.v2`): it answers in v2 when asked.
  'claude-v2': {
    name: 'Claude Code (ACP v2)',
    install: claude.installClaudeAgent,
    start: (options) => REAL_AGENTS.claude.start(options),
    settings: { 'vscode-acp.protocol.v2': true },
    scenario(workspace) {
      // Not on v2 (yet): steering (v2 has none), subagents (v2's child sessions are not followed yet).
      const { steer: _steer, subagent: _subagent, ...rest } = REAL_AGENTS.claude.scenario(workspace);
      return rest;
    },
    expect: { ...CLAUDE_EXPECT, protocolVersion: 2 },
  },
  opencode: {
    name: 'OpenCode',
    install: opencode.install,
    async start({ workspace, log }) {
      const fake = await startFakeChatCompletions({ rules: opencodeScript.scriptRules(workspace), log });
      const home = await opencode.makeHome({ workspace, baseUrl: fake.url });
      return {
        fake,
        home,
        version: opencode.OPENCODE_VERSION,
        agent: { ...opencode.launch(), env: opencode.env({ home }) },
      };
    },
    scenario(workspace) {
      const s = opencodeScript.scenario(workspace);
      return steps({
        reply: s.reply,
        create: s.write,
        edit: { ...s.edit, before: s.edit.original, after: s.edit.edited },
        shell: s.bash,
        refuse: s.refused,
        long: s.long,
        editor: s.editor,
      });
    },
    expect: {
      label: `OpenCode ${opencode.OPENCODE_VERSION}`,
      switches: [
        {
          kind: 'config',
          id: 'model',
          value: `${opencode.PROVIDER_ID}/fake-model-large`,
          requestModel: 'fake-model-large',
        },
        { kind: 'config', id: 'mode', value: 'plan' },
        { kind: 'config', id: 'mode', value: 'build' },
      ],
      continuation: 'resumed',
      lists: true,
      attachments: true,
    },
  },
  codex: {
    name: 'Codex',
    install: codex.install,
    async start({ workspace, log }) {
      const fake = await startFakeResponses({ rules: codexScript.scriptRules(workspace), log });
      const home = await codex.makeHome({ workspace, baseUrl: fake.url });
      return { fake, home, version: codex.CODEX_ACP_VERSION, agent: { ...codex.launch(), env: codex.env({ home }) } };
    },
    scenario(workspace) {
      const s = codexScript.scenario(workspace);
      return steps({
        reply: s.reply,
        create: s.create,
        edit: s.edit,
        shell: s.shell,
        refuse: s.refuse,
        long: s.long,
        steer: s.steer,
        editor: s.editor,
      });
    },
    expect: {
      label: `Codex ${codex.CODEX_ACP_VERSION}`,
      forksAtMessage: true,
      storesTitles: true,
      // Its modes are config options (the test starts in read-only, see agent.mjs).
      switches: [
        { kind: 'config', id: 'model', value: codex.CODEX_OTHER_MODEL, requestModel: codex.CODEX_OTHER_MODEL },
        { kind: 'config', id: 'reasoning_effort', value: 'high' },
        { kind: 'config', id: 'mode', value: 'workspace-write' },
        { kind: 'config', id: 'mode', value: 'read-only' },
      ],
      continuation: 'resumed',
      lists: true,
      attachments: true,
    },
  },
  gemini: {
    name: 'Gemini CLI',
    install: gemini.install,
    async start({ workspace, log }) {
      const fake = await startFakeGemini({ rules: geminiScript.scriptRules(workspace), log });
      const home = await gemini.makeHome();
      return {
        fake,
        home,
        version: gemini.GEMINI_VERSION,
        agent: { ...gemini.launch(), env: gemini.env({ home, baseUrl: fake.url }) },
      };
    },
    scenario(workspace) {
      const s = geminiScript.scenario(workspace);
      return steps({
        reply: s.reply,
        create: s.create,
        edit: s.edit,
        shell: s.shell,
        refuse: s.rejected,
        long: s.long,
        editor: s.editor,
      });
    },
    expect: {
      label: `Gemini CLI ${gemini.GEMINI_VERSION}`,
      // Legacy modes and models (session/set_mode, session/set_model): both shown, both changed.
      switches: [
        { kind: 'model', value: 'gemini-2.5-pro', requestModel: 'gemini-2.5-pro' },
        { kind: 'mode', value: 'autoEdit' },
        { kind: 'mode', value: 'default' },
      ],
      continuation: 'loaded',
      lists: false,
      attachments: true,
      // Gemini CLI 0.61: a session loaded a second time gives the model only the turns since the first
      // load, none from before it (gemini/README.md).
      secondLoadForgets: true,
      loadInNewMinute: true,
      // Without a key it needs a sign-in before any session: the chat offers its own methods.
      signIn: {
        env: { GEMINI_API_KEY: '', GOOGLE_GEMINI_BASE_URL: '' },
        methods: ['Log in with Google', 'Gemini API key', 'Vertex AI', 'AI API Gateway'],
      },
    },
  },
  qwen: {
    name: 'Qwen Code',
    install: qwen.install,
    async start({ workspace, log }) {
      const fake = await startFakeChatCompletions({ rules: qwenScript.scriptRules(workspace), log });
      const home = await qwen.makeHome({ baseUrl: fake.url });
      return {
        fake,
        home,
        version: qwen.QWEN_VERSION,
        agent: { ...qwen.launch(), env: qwen.env({ home, baseUrl: fake.url }) },
      };
    },
    scenario(workspace) {
      const { steer, editor, ...rest } = qwenScript.scenario(workspace);
      // Steer: it pulls a steered message after a tool batch (`craft/drainMidTurnQueue`): its step reads a file.
      const skip = qwen.NO_SESSION_MCP_TOOLS;
      return steps({ ...rest, steer: { ...steer, pulled: true }, editor: { ...editor, skip } });
    },
    expect: {
      label: `Qwen Code ${qwen.QWEN_VERSION}`,
      // Config options (it sends legacy modes and models too); model ids carry the provider.
      switches: [
        { kind: 'config', id: 'model', value: `${qwen.QWEN_OTHER_MODEL}(openai)`, requestModel: qwen.QWEN_OTHER_MODEL },
        { kind: 'config', id: 'reasoning_effort', value: 'high' },
        { kind: 'config', id: 'mode', value: 'plan' },
        { kind: 'config', id: 'mode', value: 'default' },
      ],
      continuation: 'resumed',
      lists: true,
      attachments: true,
      // Without a key, session/new answers "authentication required" with its one method (a terminal login).
      signIn: { env: { OPENAI_API_KEY: '' }, methods: ['Use OpenAI API key'] },
    },
  },
  // An OpenCode fork: OpenCode's script, config shape and expectations, its own binary and names.
  kilo: {
    name: 'Kilo Code CLI',
    install: kilo.install,
    async start({ workspace, log }) {
      const fake = await startFakeChatCompletions({ rules: kiloScript.scriptRules(workspace), log });
      const home = await kilo.makeHome({ baseUrl: fake.url });
      return { fake, home, version: kilo.KILO_VERSION, agent: { ...kilo.launch(), env: kilo.env({ home }) } };
    },
    scenario: (workspace) => REAL_AGENTS.opencode.scenario(workspace),
    expect: {
      label: `Kilo ${kilo.KILO_VERSION}`,
      switches: [
        {
          kind: 'config',
          id: 'model',
          value: `${kilo.PROVIDER_ID}/fake-model-large`,
          requestModel: 'fake-model-large',
        },
        { kind: 'config', id: 'mode', value: 'plan' },
        { kind: 'config', id: 'mode', value: 'code' },
      ],
      continuation: 'resumed',
      lists: true,
      attachments: true,
    },
  },
};
