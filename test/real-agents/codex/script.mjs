/**
 * What the fake Responses model does in the Codex tests: which prompt makes it call which tool,
 * with which input, and what it says afterwards. Plain data (`scenario(workspace)` is JSON-able,
 * for the extension host); `scriptRules(workspace)` turns it into fakeModel.mjs rules.
 *
 * (a) reply:  no marker -> reasoning summary + text in FALLBACK_PARTS deltas
 * (b) create: apply_patch `*** Add File: greeting.txt`
 * (c) edit:   apply_patch `*** Update File: notes.txt` (the test writes `edit.before` first)
 * (d) shell:  exec_command `echo ran | tee ran.txt`
 * (e) refuse: exec_command `echo refused | tee refused.txt`, for the permission the test rejects
 *
 * In agent.mjs's mode (`AGENT_MODE`, read-only) Codex asks before each of these patches; a
 * command asks only because the fake sets `sandbox_permissions: "require_escalated"` (else it
 * runs in the read-only sandbox, unasked, and `tee` fails), and runs outside the sandbox once
 * allowed. The same rules work in code mode (fakeModel.mjs: `exec` calling the tool).
 * Patch paths are relative to the session's cwd (the workspace), as Codex's model writes them.
 */
import * as path from 'node:path';
import { FALLBACK_PARTS, FALLBACK_TEXT, REASONING_TEXT } from './fakeModel.mjs';
import { STEER, steerRules } from '../steerScript.mjs';
import { editorRule, editorScenario, fixedText, notFixedText } from '../editorScript.mjs';

const CREATE_CONTENT = 'hello from the fake model\n';
// Two changes, a line apart: two hunks to review one by one.
const EDIT_BEFORE = 'first line\nsecond line\nthird line\nfourth line\n';
const EDIT_AFTER = 'first line\nsecond line, edited by the fake model\nthird line\nfourth line, edited too\n';

/** Everything a test needs to know, as plain data. */
export function scenario(workspace) {
  return {
    reply: {
      prompt: 'Say hello in a few words.',
      text: FALLBACK_TEXT,
      deltas: FALLBACK_PARTS.length,
      reasoning: REASONING_TEXT,
    },
    create: {
      marker: 'Please create greeting.txt',
      tool: 'apply_patch',
      file: path.join(workspace, 'greeting.txt'),
      content: CREATE_CONTENT,
      patch: `*** Begin Patch\n*** Add File: greeting.txt\n+${CREATE_CONTENT.trimEnd()}\n*** End Patch\n`,
      doneText: 'I created greeting.txt.',
      refusedText: 'The patch was refused, so I did not create greeting.txt.',
    },
    edit: {
      marker: 'Please edit notes.txt',
      tool: 'apply_patch',
      file: path.join(workspace, 'notes.txt'),
      before: EDIT_BEFORE,
      after: EDIT_AFTER,
      patch:
        '*** Begin Patch\n*** Update File: notes.txt\n@@\n first line\n-second line\n+second line, edited by the fake model\n third line\n-fourth line\n+fourth line, edited too\n*** End Patch\n',
      doneText: 'I edited notes.txt.',
      refusedText: 'The patch was refused, so notes.txt is unchanged.',
    },
    shell: {
      marker: 'Please run the command',
      tool: 'exec_command',
      command: 'echo ran | tee ran.txt',
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
      tool: 'exec_command',
      command: 'timeout 37 tail -f README.md',
      process: 'timeout 37 tail -f README.md',
      doneText: 'The long command ended.',
      refusedText: 'Refused.',
    },
    steer: STEER,
    /** The editor server's problems and definition, then a fix with apply_patch (../editorScript.mjs). */
    editor: editorScenario(workspace),
    refuse: {
      marker: 'Please run the risky command',
      tool: 'exec_command',
      command: 'echo refused | tee refused.txt',
      file: path.join(workspace, 'refused.txt'),
      doneText: 'The risky command ran.',
      refusedText: 'The risky command was refused, so nothing ran.',
    },
  };
}

/** The fake model's rules for `scenario(workspace)`. */
export function scriptRules(workspace) {
  const s = scenario(workspace);
  const patchRule = (step) => ({
    marker: step.marker,
    tool: step.tool,
    input: step.patch,
    after: (r) => (r.isError ? step.refusedText : step.doneText),
  });
  const commandRule = (step) => ({
    marker: step.marker,
    tool: step.tool,
    // Outside the sandbox, so Codex asks first (in read-only mode it would run it sandboxed, unasked).
    input: {
      cmd: step.command,
      workdir: workspace,
      sandbox_permissions: 'require_escalated',
      justification: `May I run \`${step.command}\`?`,
    },
    after: (r) => (r.isError ? step.refusedText : step.doneText),
  });
  return [
    patchRule(s.create),
    patchRule(s.edit),
    commandRule(s.shell),
    commandRule(s.refuse),
    commandRule(s.long),
    ...steerRules(),
    editorRule(workspace, (summary, e) => ({
      tool: 'apply_patch',
      input: `*** Begin Patch\n*** Update File: typed.ts\n${patchHunk(e.typed.content, e.typed.fixed)}*** End Patch\n`,
      after: (r) => (r.isError ? notFixedText(summary, r) : fixedText(summary)),
    })),
  ];
}

/** One hunk of an apply_patch from `before` to `after` (texts of the same lines): every line, changed ones as -/+. */
function patchHunk(before, after) {
  const [old, now] = [before, after].map((t) => t.trimEnd().split('\n'));
  const lines = old.flatMap((line, i) => (line === now[i] ? [` ${line}`] : [`-${line}`, `+${now[i]}`]));
  return `@@\n${lines.join('\n')}\n`;
}
