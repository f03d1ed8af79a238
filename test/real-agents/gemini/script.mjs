/**
 * What the fake Gemini model does in the Gemini CLI tests: which prompt makes it call which of
 * Gemini CLI's own tools, and what it says after the tool result. `scenario(workspace)` is plain
 * data (JSON for an extension host); `scriptRules(workspace)` turns it into fakeModel.mjs rules.
 *
 * Tools (as Gemini CLI 0.61 declares them): `write_file {file_path, content}`,
 * `replace {file_path, instruction, old_string, new_string}`, `run_shell_command {command, description}`.
 */
import * as path from 'node:path';
import { STREAM_CHUNKS, STREAM_TEXT } from './fakeModel.mjs';
import { editorRule, editorScenario, fixedText, notFixedText } from '../editorScript.mjs';

/** Everything a test needs to know, as plain data. */
export function scenario(workspace) {
  return {
    /** (a) No marker: a text reply streamed in several chunks, no tool. */
    reply: {
      prompt: 'Say hello.',
      text: STREAM_TEXT,
      chunks: STREAM_CHUNKS.length,
    },
    /** (b) A new file through write_file (Gemini first reads it with fs/read_text_file). */
    create: {
      marker: 'Please create greeting.txt',
      tool: 'write_file',
      file: path.join(workspace, 'greeting.txt'),
      content: 'hello from the fake model\n',
      doneText: 'I created greeting.txt.',
      failedText: 'Creating greeting.txt failed.',
    },
    /** (c) An existing file changed through replace. */
    edit: {
      marker: 'Please edit notes.txt',
      tool: 'replace',
      file: path.join(workspace, 'notes.txt'),
      // Two changes, a line apart: two hunks to review one by one.
      before: 'alpha\nbeta\ngamma\ndelta\n',
      oldString: 'beta\ngamma\ndelta',
      newString: 'BETA\ngamma\nDELTA',
      after: 'alpha\nBETA\ngamma\nDELTA\n',
      instruction: 'Capitalise the word beta.',
      doneText: 'I edited notes.txt.',
      failedText: 'Editing notes.txt failed.',
    },
    /** (d) A shell command through run_shell_command (Gemini CLI runs it itself). */
    shell: {
      marker: 'Please run the command',
      tool: 'run_shell_command',
      command: 'echo ran | tee ran.txt',
      description: 'Write ran.txt',
      file: path.join(workspace, 'ran.txt'),
      fileContent: 'ran\n',
      doneText: 'The command ran.',
      failedText: 'The command was refused or failed.',
    },
    /** The permission the test rejects: another shell command. */
    rejected: {
      marker: 'Please run the forbidden command',
      tool: 'run_shell_command',
      command: 'echo nope | tee nope.txt',
      description: 'Write nope.txt',
      file: path.join(workspace, 'nope.txt'),
      doneText: 'The forbidden command ran.',
      refusedText: 'The command was refused, so nothing ran.',
    },
    /** A command still running when the test disconnects: it must end with the agent. */
    long: {
      marker: 'Please run the long command',
      tool: 'run_shell_command',
      command: 'timeout 37 tail -f README.md',
      process: 'timeout 37 tail -f README.md',
      description: 'Wait a while',
      doneText: 'The long command ended.',
    },
    /** The editor server's problems and definition, then a fix with replace (../editorScript.mjs). */
    editor: editorScenario(workspace),
    /** In mode autoEdit an edit runs without asking. */
    autoEdit: {
      marker: 'Please create auto.txt',
      tool: 'write_file',
      file: path.join(workspace, 'auto.txt'),
      content: 'written without asking\n',
      doneText: 'I created auto.txt.',
      failedText: 'Creating auto.txt failed.',
    },
  };
}

/** The fake model's rules for `scenario(workspace)`. */
export function scriptRules(workspace) {
  const s = scenario(workspace);
  const done = (step) => (r) => (r.isError ? (step.failedText ?? step.refusedText) : step.doneText);
  return [
    {
      marker: s.create.marker,
      tool: s.create.tool,
      args: { file_path: s.create.file, content: s.create.content },
      after: done(s.create),
    },
    {
      marker: s.edit.marker,
      tool: s.edit.tool,
      args: {
        file_path: s.edit.file,
        instruction: s.edit.instruction,
        old_string: s.edit.oldString,
        new_string: s.edit.newString,
      },
      after: done(s.edit),
    },
    {
      marker: s.shell.marker,
      tool: s.shell.tool,
      args: { command: s.shell.command, description: s.shell.description },
      after: done(s.shell),
    },
    {
      marker: s.rejected.marker,
      tool: s.rejected.tool,
      args: { command: s.rejected.command, description: s.rejected.description },
      after: done(s.rejected),
    },
    {
      marker: s.long.marker,
      tool: s.long.tool,
      args: { command: s.long.command, description: s.long.description },
      after: done(s.long),
    },
    {
      marker: s.autoEdit.marker,
      tool: s.autoEdit.tool,
      args: { file_path: s.autoEdit.file, content: s.autoEdit.content },
      after: done(s.autoEdit),
    },
    editorRule(workspace, (summary, e) => ({
      tool: 'replace',
      args: {
        file_path: e.typed.file,
        instruction: 'Give count the type greet() returns.',
        old_string: e.wrong,
        new_string: e.right,
      },
      after: (r) => (r.isError ? notFixedText(summary, r) : fixedText(summary)),
    })),
  ];
}
