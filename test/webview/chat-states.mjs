/**
 * The chat view's states as a user meets them in a narrow side bar, each applied to a fresh page: no chat yet (an
 * agent not installed), an answer in progress with three open chats and the session's pickers, a permission request
 * with a long diff, prompts queued, the agent's question, the Changes bar, three chats beside Install, and Restricted
 * Mode. Names and texts as long as real ones (Claude Code's session titles, a model name with its note).
 */
import { CLAUDE_CONFIG_OPTIONS } from '../fixtures/claudeControls.mjs';
import { runningStatus } from './harness.mjs';

const agents = [
  { id: 'claude', name: 'Claude Code', available: true },
  { id: 'opencode', name: 'OpenCode', available: true },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    available: false,
    detail: 'gemini not found on PATH',
    install: 'npm install @google/gemini-cli',
  },
];
const chats = [
  { id: 'c1', title: 'Tidy up the README and the contributing guide', agentName: 'Claude Code', marker: 'running' },
  { id: 'c2', title: 'New chat', agentName: 'OpenCode', marker: 'none' },
  { id: 'c3', title: 'Fake model session about the parser', agentName: 'Claude Code', marker: 'permission' },
];
const controls = {
  configOptions: CLAUDE_CONFIG_OPTIONS,
  commands: [],
};
const base = (extra = {}) =>
  runningStatus({
    agents,
    selectedAgentId: 'claude',
    chats,
    controls,
    agentLabel: 'Claude Code 0.101.0',
    title: chats[0].title,
    ...extra,
  });
const entries = (list) => ({
  type: 'entries',
  length: list.length,
  ops: list.map((entry, index) => ({ op: 'set', index, entry })),
});
const convo = [
  { kind: 'user', id: 'u1', text: 'Tidy up the README: the install section is out of date.' },
  {
    kind: 'assistant',
    id: 'a1',
    text: 'I will read the README first, then rewrite the **Install** section so that it matches `package.json`.',
  },
  {
    kind: 'tool',
    id: 't1',
    toolCallId: 'c-1',
    title: 'Read README.md',
    toolKind: 'read',
    status: 'completed',
    locations: [{ path: '/w/README.md' }],
    content: [],
  },
];
const oldText = Array.from({ length: 60 }, (_, i) => `line ${i} of the old install section`).join('\n');
const newText = Array.from({ length: 60 }, (_, i) =>
  i % 3 ? `line ${i} of the old install section` : `line ${i} rewritten to say npm install && npm start`,
).join('\n');
const permission = {
  requestId: 'p1',
  tool: {
    kind: 'tool',
    id: 't2',
    toolCallId: 'c-2',
    title: 'Edit README.md',
    toolKind: 'edit',
    status: 'pending',
    locations: [{ path: '/w/README.md', line: 12 }],
    content: [{ type: 'diff', path: '/w/README.md', oldText, newText }],
  },
  choices: ['allow_once', 'allow_always', 'reject'],
  agentOptions: ['Yes', "Yes, and don't ask again this session", 'No'],
  alwaysScope: "Yes, and don't ask again this session",
};
/** Each state, by name: applies it to a chat page (openChatPage). */
export const STATES = {
  empty: async (chat) =>
    chat.apply({
      type: 'status',
      status: {
        ...base({
          turn: 'idle',
          connection: 'disconnected',
          chats: [chats[1]],
          title: undefined,
          controls: { configOptions: [], commands: [] },
        }),
        selectedAgentId: 'gemini',
      },
    }),
  /** An answer, and what the agent asked VS Code for it (the editor server), with paths as long as real ones. */
  editorCalls: async (chat) => {
    await chat.apply({ type: 'status', status: base({ turn: 'idle' }) });
    await chat.apply(
      entries([
        ...convo,
        {
          kind: 'editorCalls',
          id: 'k1',
          calls: [
            {
              tool: 'problems',
              about: 'problems in packages/server/src/handlers/installSection.ts: 12 (3 errors)',
              path: '/w/packages/server/src/handlers/installSection.ts',
              line: 41,
            },
            {
              tool: 'definition',
              about:
                'definition at packages/server/src/handlers/installSection.ts:41:7: packages/shared/src/readme.ts:9:17',
              path: '/w/packages/shared/src/readme.ts',
              line: 9,
            },
            { tool: 'problems', about: 'problems: not answered', refused: true },
          ],
        },
      ]),
    );
  },
  streaming: async (chat) => {
    await chat.apply({ type: 'status', status: base() });
    await chat.apply(entries(convo));
  },
  permission: async (chat) => {
    await chat.apply({ type: 'status', status: base({ permissions: [permission] }) });
    await chat.apply(entries(convo));
  },
  queue: async (chat) => {
    await chat.apply({
      type: 'status',
      status: base({
        queued: [
          {
            id: 1,
            text: 'Then update the changelog with every change made to the install section and link the release notes',
            attachments: 2,
          },
          { id: 2, text: 'And run the tests', attachments: 0 },
        ],
      }),
    });
    await chat.apply(entries(convo));
  },
  elicitation: async (chat) => {
    await chat.apply({
      type: 'status',
      status: base({
        elicitations: [
          {
            mode: 'form',
            id: 'e1',
            message: 'A few details for the deploy.',
            toolTitle: 'Deploy',
            fields: [
              { kind: 'text', name: 'name', title: 'Service name', required: true },
              {
                kind: 'select',
                name: 'region',
                title: 'Region',
                required: true,
                options: [
                  { value: 'eu', title: 'Europe (Frankfurt, eu-central-1)' },
                  { value: 'us', title: 'America' },
                ],
              },
            ],
          },
        ],
      }),
    });
    await chat.apply(entries(convo));
  },
  changes: async (chat) => {
    await chat.apply({
      type: 'status',
      status: base({
        turn: 'idle',
        changes: {
          files: [
            { path: '/w/README.md', label: 'README.md', kind: 'edited', added: 12, removed: 3 },
            {
              path: '/w/docs/contributing/getting-started-with-the-project.md',
              label: 'docs/contributing/getting-started-with-the-project.md',
              kind: 'created',
              added: 40,
              removed: 0,
            },
          ],
          total: 2,
          busy: false,
        },
      }),
    });
    await chat.apply(entries(convo));
  },
  /** Three chats open, and an agent picked that is not installed: the header's chat list beside Install. */
  install: async (chat) =>
    chat.apply({
      type: 'status',
      status: {
        ...base({ turn: 'idle', connection: 'disconnected', controls: { configOptions: [], commands: [] } }),
        selectedAgentId: 'gemini',
      },
    }),
  restricted: async (chat) => {
    await chat.apply({
      type: 'status',
      status: base({
        turn: 'idle',
        connection: 'disconnected',
        restricted:
          'Restricted Mode: the agent cannot read or write files or run commands here until you trust this folder.',
      }),
    });
  },
};
