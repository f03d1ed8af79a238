/**
 * What the fake model does in the real-agent tests: which prompt makes it call which tool, and
 * what it says after the tool result. Shared by the SDK proof (sdkClient.mjs) and the VS Code run
 * (run.mjs passes `scenario(workspace)` to the in-host test as JSON).
 */
import * as path from 'node:path';
import { FALLBACK_TEXT, workingDirectory } from './fakeAnthropic.mjs';
import { STEER, steerRules } from './steerScript.mjs';
import { editorRule, editorScenario, fixedText, notFixedText } from './editorScript.mjs';

export const WRITE_CONTENT = 'hello from the fake model\n';

/** The second folder of the two-folder window (run.mjs makes it beside the workspace). */
export function secondFolder(workspace) {
  return `${workspace}-second`;
}

/** Everything a test needs to know, as plain data (JSON for the extension host). */
export function scenario(workspace) {
  return {
    /** No marker: the fake model's short text. */
    reply: { prompt: 'Say something, please.', text: FALLBACK_TEXT },
    write: {
      marker: 'Please create greeting.txt',
      tool: 'Write',
      file: path.join(workspace, 'greeting.txt'),
      content: WRITE_CONTENT,
      doneText: 'I created greeting.txt.',
      refusedText: 'The write was refused, so I did not create greeting.txt.',
    },
    /** An existing file: Claude Code reads it, then edits it (its Edit tool refuses a file it has not read). */
    edit: {
      marker: 'Please edit notes.txt',
      file: path.join(workspace, 'notes.txt'),
      // Two changes, a line apart: two hunks to review one by one.
      original: 'one\ntwo\nthree\nfour\n',
      edited: 'one\nTWO\nthree\nFOUR\n',
      doneText: 'I edited notes.txt.',
      refusedText: 'The edit was refused, so notes.txt is as it was.',
    },
    /** An existing file written whole: Claude Code's Write, which its adapter sends on ACP v1 with no old text. */
    rewrite: {
      marker: 'Please rewrite story.txt',
      file: path.join(workspace, 'story.txt'),
      original: 'alpha\nbeta\ngamma\n',
      rewritten: 'alpha\nBETA\ngamma\n',
      doneText: 'I rewrote story.txt.',
      refusedText: 'The rewrite was refused, so story.txt is as it was.',
    },
    bash: {
      marker: 'Please run the command',
      tool: 'Bash',
      command: 'echo ran | tee ran.txt',
      description: 'Write ran.txt',
      file: path.join(workspace, 'ran.txt'),
      fileContent: 'ran\n',
      /** What the command prints. */
      output: 'ran',
      doneText: 'The command ran.',
      refusedText: 'The command was refused, so nothing ran.',
    },
    /** A command still running when the test disconnects: it must end with the agent. */
    long: {
      marker: 'Please run the long command',
      tool: 'Bash',
      command: 'timeout 37 tail -f README.md',
      process: 'timeout 37 tail -f README.md',
      description: 'Wait a while',
    },
    steer: STEER,
    /** The editor server's problems and definition, then a fix with Read and Edit (editorScript.mjs). */
    editor: editorScenario(workspace),
    /** A question the model asks through its AskUserQuestion tool: the adapter makes it an ACP form elicitation. */
    ask: {
      marker: 'Please ask me which colour',
      question: 'Which colour should the button be?',
      options: ['Blue', 'Green'],
      /** The model's text after the tool result: it names the answer the user picked. */
      answeredText: (picked) => `You picked ${picked}.`,
    },
    /** A file of the second folder of a two-folder window: read without asking, since the agent was given it. */
    readSecond: {
      marker: 'Please read the file in the second folder',
      file: path.join(secondFolder(workspace), 'second.txt'),
      content: 'from the second folder\n',
      doneText: 'I read the file in the second folder.',
      refusedText: 'I could not read the file in the second folder.',
    },
    /**
     * A subagent (Claude Code's Agent tool, run in the foreground): its own requests come with `prompt` as the last
     * user text, and are answered `text`; the main agent then says `doneText`.
     */
    subagent: {
      marker: 'Please ask a helper to check the notes',
      description: 'Check the notes',
      prompt: 'SUBAGENT TASK: check the notes and report.',
      text: 'The notes are in order.',
      doneText: 'The helper checked the notes.',
    },
    /**
     * Plan rate limits: the turn's last answer to `marker` carries the Messages API's unified rate-limit headers (5-hour window
     * near its limit at 0.8, 7-day at 0.3), which Claude Code reads when signed in to a plan (an OAuth token, `env`).
     */
    rateLimits: {
      marker: 'How close am I to my limits',
      text: 'Here are your limits.',
      env: { ANTHROPIC_API_KEY: '', CLAUDE_CODE_OAUTH_TOKEN: 'fake-oauth-token' },
      fiveHour: 0.8,
      sevenDay: 0.3,
    },
    /** A command whose permission the test rejects. */
    refuse: {
      marker: 'Please try the forbidden command',
      tool: 'Bash',
      command: 'echo forbidden | tee forbidden.txt',
      description: 'Write forbidden.txt',
      file: path.join(workspace, 'forbidden.txt'),
      doneText: 'The forbidden command ran.',
      refusedText: 'The forbidden command was refused, so nothing ran.',
    },
  };
}

/** The fake endpoint's rules for `scenario(workspace)`. */
export function scriptRules(workspace) {
  const s = scenario(workspace);
  return [
    {
      marker: s.write.marker,
      tool: 'Write',
      // In the directory the agent says it works in (a worktree's chat writes there: worktrees.test.ts).
      input: (body) => ({
        file_path: path.join(workingDirectory(body) ?? workspace, path.basename(s.write.file)),
        content: s.write.content,
      }),
      after: (r) => (r.isError ? s.write.refusedText : s.write.doneText),
    },
    {
      marker: s.edit.marker,
      tool: 'Read',
      input: { file_path: s.edit.file },
      after: () => ({
        tool: 'Edit',
        input: { file_path: s.edit.file, old_string: 'two\nthree\nfour', new_string: 'TWO\nthree\nFOUR' },
        after: (r) => (r.isError ? s.edit.refusedText : s.edit.doneText),
      }),
    },
    {
      marker: s.rewrite.marker,
      tool: 'Read',
      input: { file_path: s.rewrite.file },
      after: () => ({
        tool: 'Write',
        input: { file_path: s.rewrite.file, content: s.rewrite.rewritten },
        after: (r) => (r.isError ? s.rewrite.refusedText : s.rewrite.doneText),
      }),
    },
    {
      marker: s.subagent.marker,
      tool: 'Agent',
      input: {
        description: s.subagent.description,
        prompt: s.subagent.prompt,
        subagent_type: 'general-purpose',
        run_in_background: false,
      },
      after: (r) => (r.isError ? `The helper failed: ${r.text.slice(0, 200)}` : s.subagent.doneText),
    },
    // The subagent's own request: its task is its last user text.
    { marker: s.subagent.prompt, reply: s.subagent.text },
    // The limits come with the turn's second answer: Claude's adapter drops a rate-limit event that comes before
    // the turn's first usage (0.101.0, \`lastAssistantTotalUsage\`), and the first answer's headers race its body.
    {
      marker: s.rateLimits.marker,
      tool: 'Read',
      input: { file_path: path.join(workspace, 'README.md') },
      after: () => ({ reply: s.rateLimits.text, headers: rateLimitHeaders(s.rateLimits) }),
    },
    {
      marker: s.readSecond.marker,
      tool: 'Read',
      input: { file_path: s.readSecond.file },
      after: (r) => (r.isError ? s.readSecond.refusedText : s.readSecond.doneText),
    },
    ...steerRules(),
    // Its Edit refuses a file it has not read.
    editorRule(workspace, (summary, e) => ({
      tool: 'Read',
      input: { file_path: e.typed.file },
      after: () => ({
        tool: 'Edit',
        input: { file_path: e.typed.file, old_string: e.wrong, new_string: e.right },
        after: (r) => (r.isError ? notFixedText(summary, r) : fixedText(summary)),
      }),
    })),
    {
      marker: s.ask.marker,
      tool: 'AskUserQuestion',
      input: {
        questions: [
          {
            question: s.ask.question,
            header: 'Colour',
            options: s.ask.options.map((label) => ({ label, description: `A ${label.toLowerCase()} button` })),
            multiSelect: false,
          },
        ],
      },
      after: (r) => {
        const picked = s.ask.options.find((o) => r.text.includes(`"${o}"`));
        return r.isError || !picked ? `No answer (${r.text.slice(0, 200)})` : s.ask.answeredText(picked);
      },
    },
    ...[s.bash, s.refuse, s.long].map((step) => ({
      marker: step.marker,
      tool: 'Bash',
      input: { command: step.command, description: step.description },
      after: (r) => (r.isError ? (step.refusedText ?? 'Refused.') : (step.doneText ?? 'Done.')),
    })),
  ];
}

/** The unified rate-limit headers of an answer: the 5-hour window in warning (the one reported), the 7-day one too. */
function rateLimitHeaders({ fiveHour, sevenDay }) {
  const now = Math.floor(Date.now() / 1000);
  const [fiveReset, sevenReset] = [String(now + 3 * 3600), String(now + 4 * 86400)];
  const h = 'anthropic-ratelimit-unified-';
  return {
    [`${h}status`]: 'allowed',
    [`${h}representative-claim`]: 'five_hour',
    [`${h}reset`]: fiveReset,
    [`${h}5h-status`]: 'allowed_warning',
    [`${h}5h-utilization`]: String(fiveHour),
    [`${h}5h-reset`]: fiveReset,
    [`${h}5h-surpassed-threshold`]: '0.75',
    [`${h}7d-status`]: 'allowed',
    [`${h}7d-utilization`]: String(sevenDay),
    [`${h}7d-reset`]: sevenReset,
  };
}
