/**
 * What the fake model does in OpenCode's real-agent test, as plain data (JSON-able for the
 * extension host): which prompt makes it call which of OpenCode's tools with which arguments, and
 * what it says afterwards. `scriptRules(workspace)` turns it into fakeModel.mjs rules. Used by
 * sdkClient.mjs (the proof without VS Code).
 *
 * OpenCode's tools (1.18): `write {filePath, content}`, `edit {filePath, oldString, newString,
 * replaceAll?}`, `read {filePath, offset?, limit?}`, `bash {command, workdir?, timeout?}`; paths
 * are absolute. The edit tool's description tells the model to `read` the file first (1.18.33
 * does not enforce it): the fake model does, as a real one would.
 */
import * as path from 'node:path';
import { STREAMED_TEXT } from './fakeModel.mjs';
import { editorRule, editorScenario, fixedText, notFixedText } from '../editorScript.mjs';

/** Everything a test needs to know, as plain data. */
export function scenario(workspace) {
  return {
    /** (a) no marker: a text streamed in several chunks. */
    reply: {
      prompt: 'Say something, please.',
      text: STREAMED_TEXT,
      minChunks: 3,
    },
    /** (b) a new file. */
    write: {
      marker: 'Please create greeting.txt',
      tool: 'write',
      file: path.join(workspace, 'greeting.txt'),
      content: 'hello from the fake model\n',
      doneText: 'I created greeting.txt.',
      refusedText: 'The write was refused, so I did not create greeting.txt.',
    },
    /** (c) an existing file (the test creates it with `original`), read first, then edited. */
    edit: {
      marker: 'Please edit notes.txt',
      tool: 'edit',
      file: path.join(workspace, 'notes.txt'),
      // Two changes, a line apart: two hunks to review one by one.
      original: 'title: notes\ncolor = red\nsize = 1\nshape = round\n',
      oldString: 'color = red\nsize = 1\nshape = round',
      newString: 'color = blue\nsize = 1\nshape = square',
      edited: 'title: notes\ncolor = blue\nsize = 1\nshape = square\n',
      doneText: 'I changed the color in notes.txt.',
      refusedText: 'The edit was refused, so notes.txt is unchanged.',
    },
    /** (d) a shell command, allowed. */
    bash: {
      marker: 'Please run the command',
      tool: 'bash',
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
      tool: 'bash',
      command: 'timeout 37 tail -f README.md',
      process: 'timeout 37 tail -f README.md',
    },
    /** The editor server's problems and definition, then a fix with read and edit (../editorScript.mjs). */
    editor: editorScenario(workspace),
    /**
     * (e) a shell command whose permission the test rejects. OpenCode then ends the turn without
     * asking the model again (no text); the model sees the rejection with the next prompt.
     */
    refused: {
      marker: 'Please try the forbidden command',
      tool: 'bash',
      command: 'echo forbidden | tee forbidden.txt',
      file: path.join(workspace, 'forbidden.txt'),
      doneText: 'The forbidden command ran.',
      refusedText: 'The command was refused, so nothing ran.',
    },
  };
}

/** The fake model's rules for `scenario(workspace)`. */
export function scriptRules(workspace) {
  const s = scenario(workspace);
  const after = (step) => (r) => (r.isError ? step.refusedText : step.doneText);
  return [
    {
      marker: s.write.marker,
      tool: 'write',
      input: { filePath: s.write.file, content: s.write.content },
      after: after(s.write),
    },
    {
      marker: s.edit.marker,
      tool: 'edit',
      before: [{ tool: 'read', input: { filePath: s.edit.file } }],
      input: { filePath: s.edit.file, oldString: s.edit.oldString, newString: s.edit.newString },
      after: after(s.edit),
    },
    { marker: s.bash.marker, tool: 'bash', input: { command: s.bash.command }, after: after(s.bash) },
    { marker: s.refused.marker, tool: 'bash', input: { command: s.refused.command }, after: after(s.refused) },
    { marker: s.long.marker, tool: 'bash', input: { command: s.long.command }, after: () => 'The long command ended.' },
    editorRule(workspace, (summary, e) => ({
      tool: 'edit',
      before: [{ tool: 'read', input: { filePath: e.typed.file } }],
      input: { filePath: e.typed.file, oldString: e.wrong, newString: e.right },
      after: (r) => (r.isError ? notFixedText(summary, r) : fixedText(summary)),
    })),
  ];
}
