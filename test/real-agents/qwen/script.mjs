/**
 * What the fake model does in Qwen Code's real-agent test, as plain data (JSON-able for the
 * extension host): which prompt makes it call which of Qwen Code's tools with which arguments, and
 * what it says afterwards. `scriptRules(workspace)` turns it into rules for the Chat Completions
 * fake (../opencode/fakeModel.mjs). Used by sdkClient.mjs (the proof without VS Code).
 *
 * Qwen Code's tools (0.24): `write_file {file_path, content}`, `edit {file_path, old_string,
 * new_string, replace_all?}` (it refuses an edit of a file not read first: the fake model reads
 * it with `read_file {file_path}`), `run_shell_command {command, description?, is_background?}`
 * (it runs the command itself); paths are absolute. It writes files through the client's
 * `fs/write_text_file`. A rejected permission ends the turn without asking the model again.
 *
 * Steer: Qwen Code takes a steered message only when it asks the client for one
 * (`craft/drainMidTurnQueue`), after a tool batch, before it asks the model again. So the answer
 * to STEER's marker says its slow text (the time to steer) and then reads README.md with
 * `read_file` (no permission asked); the model, asked again with the steered message after the
 * read's result, answers STEER's reply (without the message: `STEER_MISSED`).
 */
import * as path from 'node:path';
import { STREAMED_TEXT } from '../opencode/fakeModel.mjs';
import { STEER } from '../steerScript.mjs';
import { editorRule, editorScenario, fixedText, notFixedText } from '../editorScript.mjs';

/** What the model says after the read of the steer step when no steered message came with its result. */
export const STEER_MISSED = 'I read README.md; nothing else was said.';
/** How long the slow text of the steer step waits: the drain comes after it, so it must not wait for an abort. */
const STEER_HOLD_MS = 6_000;

/** Everything a test needs to know, as plain data. */
export function scenario(workspace) {
  return {
    /** No marker: a text streamed in several chunks. */
    reply: { prompt: 'Say something, please.', text: STREAMED_TEXT, minChunks: 3 },
    /** A new file. */
    create: {
      marker: 'Please create greeting.txt',
      file: path.join(workspace, 'greeting.txt'),
      content: 'hello from the fake model\n',
      doneText: 'I created greeting.txt.',
      refusedText: 'The write was refused, so I did not create greeting.txt.',
    },
    /** An existing file (the test creates it with `before`), read first, then edited. */
    edit: {
      marker: 'Please edit notes.txt',
      file: path.join(workspace, 'notes.txt'),
      // Two changes, a line apart: two hunks to review one by one.
      before: 'title: notes\ncolor = red\nsize = 1\nshape = round\n',
      oldString: 'color = red\nsize = 1\nshape = round',
      newString: 'color = blue\nsize = 1\nshape = square',
      after: 'title: notes\ncolor = blue\nsize = 1\nshape = square\n',
      doneText: 'I changed the color in notes.txt.',
      refusedText: 'The edit was refused, so notes.txt is unchanged.',
    },
    /** A shell command, allowed. */
    shell: {
      marker: 'Please run the command',
      command: 'echo ran | tee ran.txt',
      description: 'Write ran.txt',
      file: path.join(workspace, 'ran.txt'),
      fileContent: 'ran\n',
      doneText: 'The command ran.',
      refusedText: 'The command was refused, so nothing ran.',
    },
    /** A shell command whose permission the test rejects. */
    refuse: {
      marker: 'Please try the forbidden command',
      command: 'echo forbidden | tee forbidden.txt',
      description: 'Write forbidden.txt',
      file: path.join(workspace, 'forbidden.txt'),
      doneText: 'The forbidden command ran.',
      refusedText: 'The command was refused, so nothing ran.',
    },
    /** A command still running when the test disconnects: it must end with the agent. */
    long: {
      marker: 'Please run the long command',
      command: 'timeout 37 tail -f README.md',
      description: 'Follow README.md',
      process: 'timeout 37 tail -f README.md',
    },
    /** The editor server's problems and definition, then a fix with read_file and edit (../editorScript.mjs). */
    editor: editorScenario(workspace),
    /** Steered during the slow text, taken at the drain after the read: see the header. */
    steer: { ...STEER, holdMs: STEER_HOLD_MS, file: path.join(workspace, 'README.md') },
  };
}

/** The fake model's rules for `scenario(workspace)`. */
export function scriptRules(workspace) {
  const s = scenario(workspace);
  const after = (step) => (r) => (r.isError ? step.refusedText : step.doneText);
  const shell = (step) => ({
    marker: step.marker,
    tool: 'run_shell_command',
    input: { command: step.command, description: step.description, is_background: false },
    after: step.doneText ? after(step) : () => 'The long command ended.',
  });
  return [
    {
      marker: s.create.marker,
      tool: 'write_file',
      input: { file_path: s.create.file, content: s.create.content },
      after: after(s.create),
    },
    {
      marker: s.edit.marker,
      tool: 'edit',
      before: [{ tool: 'read_file', input: { file_path: s.edit.file } }],
      input: { file_path: s.edit.file, old_string: s.edit.oldString, new_string: s.edit.newString },
      after: after(s.edit),
    },
    shell(s.shell),
    shell(s.refuse),
    shell(s.long),
    {
      marker: s.steer.marker,
      reply: s.steer.slowReply,
      holdMs: s.steer.holdMs,
      tool: 'read_file',
      input: { file_path: s.steer.file },
      after: () => STEER_MISSED,
    },
    { marker: s.steer.text, reply: s.steer.reply },
    // Its edit refuses a file it has not read.
    editorRule(workspace, (summary, e) => ({
      tool: 'edit',
      before: [{ tool: 'read_file', input: { file_path: e.typed.file } }],
      input: { file_path: e.typed.file, old_string: e.wrong, new_string: e.right },
      after: (r) => (r.isError ? notFixedText(summary, r) : fixedText(summary)),
    })),
  ];
}
