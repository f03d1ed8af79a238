import * as assert from 'node:assert/strict';
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import {
  commandLine,
  MAX_DIFF_CHARS,
  MAX_TERMINAL_CHARS,
  patchToolEntry,
  toolEntryFromCall,
} from '../../../../../src/shared/thread/toolCalls';

describe("a tool call's programmatic name", () => {
  it('is kept where given, bounded to one line, and an update without one keeps it', () => {
    const call = toolEntryFromCall('e', { toolCallId: 't', title: 'Read', name: 'Read' }, undefined);
    assert.equal(call.name, 'Read');
    assert.equal(patchToolEntry(call, { toolCallId: 't', status: 'completed' }).name, 'Read');
    assert.equal(patchToolEntry(call, { toolCallId: 't', name: null }).name, 'Read');
    assert.equal(patchToolEntry(call, { toolCallId: 't', name: 'Edit' }).name, 'Edit');
    const hostile = toolEntryFromCall(
      'e',
      { toolCallId: 't', title: 'x', name: `a\n\u202e${'b'.repeat(500)}` },
      undefined,
    );
    assert.ok(hostile.name && hostile.name.length <= 201 && !/[\n\u202e]/.test(hostile.name), hostile.name);
    assert.equal('name' in toolEntryFromCall('e', { toolCallId: 't', title: 'x' }, undefined), false);
    assert.equal('name' in toolEntryFromCall('e', { toolCallId: 't', title: 'x', name: '  ' }, undefined), false);
  });
});

describe('tool call terminal output', () => {
  const start = toolEntryFromCall(
    'e1',
    { toolCallId: 't', title: 'run', kind: 'execute', _meta: { terminal_info: { terminal_id: 'x' } } },
    undefined,
  );
  const output = (id: string, data: string): ToolCallUpdate => ({
    toolCallId: 't',
    _meta: { terminal_output: { terminal_id: id, data } },
  });

  it('keeps only the newest output when an agent streams more than the cap', () => {
    let entry = start;
    const chunk = 'a'.repeat(64 * 1024 - 1) + '\n';
    for (let i = 0; i < 20; i++) entry = patchToolEntry(entry, output('x', chunk));
    entry = patchToolEntry(entry, output('x', 'THE END'));
    const terminal = entry.content[0];
    assert.equal(terminal.type, 'terminal');
    if (terminal.type !== 'terminal') return;
    assert.equal(terminal.output.length, MAX_TERMINAL_CHARS);
    assert.ok(terminal.output.endsWith('THE END'));
  });

  it('ignores malformed terminal meta instead of throwing', () => {
    const entry = patchToolEntry(start, {
      toolCallId: 't',
      _meta: { terminal_output: { terminal_id: 5, data: {} }, terminal_exit: 'nope' },
    });
    assert.deepEqual(entry.content, start.content);
  });
});

describe('huge tool call content', () => {
  it('keeps at most 64 KiB of a text block or an embedded resource, and says how much more there was', () => {
    const big = 'x'.repeat(8 * 1024 * 1024);
    const entry = toolEntryFromCall(
      'e1',
      {
        toolCallId: 't',
        title: 'read',
        content: [
          { type: 'content', content: { type: 'text', text: big } },
          { type: 'content', content: { type: 'resource', resource: { uri: 'file:///w/a.txt', text: big } } },
        ],
      },
      undefined,
    );
    for (const c of entry.content) {
      const text = c.type === 'content' && 'text' in c.block ? (c.block.text ?? '') : '';
      assert.equal(text, `${'x'.repeat(64 * 1024)}\n… (${big.length - 64 * 1024} more characters)`);
    }
  });

  it('keeps only the line counts of an edit too large to diff', () => {
    const oldText = 'old line\n'.repeat(150_000);
    const newText = 'new line\n'.repeat(100_000) + 'no newline at the end';
    assert.ok(oldText.length + newText.length > MAX_DIFF_CHARS);
    const entry = toolEntryFromCall(
      'e1',
      { toolCallId: 't', title: 'edit', content: [{ type: 'diff', path: '/w/a.txt', oldText, newText }] },
      undefined,
    );
    assert.deepEqual(entry.content, [
      { type: 'diff', path: '/w/a.txt', oldText: '', newText: '', tooLarge: { oldLines: 150_000, newLines: 100_001 } },
    ]);
    const created = patchToolEntry(entry, {
      toolCallId: 't',
      content: [{ type: 'diff', path: '/w/b.txt', newText: 'y'.repeat(MAX_DIFF_CHARS + 1) }],
    });
    assert.deepEqual(created.content.at(-1), {
      type: 'diff',
      path: '/w/b.txt',
      oldText: null,
      newText: '',
      tooLarge: { oldLines: 0, newLines: 1 },
    });
    // Below the limit the texts stay, for the view to diff.
    const small = toolEntryFromCall(
      'e2',
      { toolCallId: 'u', title: 'edit', content: [{ type: 'diff', path: '/w/c.txt', oldText: 'a\n', newText: 'b\n' }] },
      undefined,
    );
    assert.deepEqual(small.content, [{ type: 'diff', path: '/w/c.txt', oldText: 'a\n', newText: 'b\n' }]);
  });
});

describe('client terminal output in tool calls', () => {
  it('shows output that arrived before the tool call named the terminal, and what comes after', async () => {
    const { reduceThread } = await import('../../../../../src/shared/thread/threadReducer');
    const { emptyThread } = await import('../../../../../src/shared/thread/thread');
    let thread = reduceThread(emptyThread, { type: 'terminal', id: 'a', terminalId: 'term-1', data: 'early\n' });
    thread = reduceThread(thread, {
      type: 'update',
      id: 'b',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'run',
        kind: 'execute',
        content: [{ type: 'terminal', terminalId: 'term-1' }],
      },
    });
    thread = reduceThread(thread, { type: 'terminal', id: 'c', terminalId: 'term-1', data: 'late\n' });
    thread = reduceThread(thread, {
      type: 'terminal',
      id: 'd',
      terminalId: 'term-1',
      exit: { exitCode: 2, signal: null },
    });
    const tool = thread.entries[0];
    assert.equal(tool.kind, 'tool');
    if (tool.kind !== 'tool') return;
    assert.deepEqual(tool.content, [
      { type: 'terminal', terminalId: 'term-1', output: 'early\nlate\n', exitCode: 2, signal: null },
    ]);
  });
});

describe('tool calls as real agents send them', () => {
  const play = async (updates: Array<Record<string, unknown>>) => {
    const { reduceThread } = await import('../../../../../src/shared/thread/threadReducer');
    const { emptyThread } = await import('../../../../../src/shared/thread/thread');
    return updates.reduce(
      (t, update, i) => reduceThread(t, { type: 'update', id: `u${i}`, update } as never),
      emptyThread,
    );
  };

  it('shows a call first seen in an update (Gemini CLI) as a call, with what the update says', async () => {
    const thread = await play([
      { sessionUpdate: 'tool_call_update', toolCallId: 'write_file-1', status: 'in_progress' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'write_file-1',
        status: 'completed',
        title: 'Writing to a.txt',
        kind: 'edit',
        content: [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'hi\n' }],
      },
    ]);
    assert.equal(thread.entries.length, 1);
    const entry = thread.entries[0];
    assert.ok(entry?.kind === 'tool');
    assert.deepEqual(
      { status: entry.status, title: entry.title, toolKind: entry.toolKind },
      { status: 'completed', title: 'Writing to a.txt', toolKind: 'edit' },
    );
    assert.deepEqual(entry.content, [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'hi\n' }]);
  });

  it('shows an argv command (Codex) as a command line, quoted where a shell would need it', async () => {
    const entry = toolEntryFromCall(
      'e1',
      {
        toolCallId: 't',
        title: 'Run',
        kind: 'execute',
        rawInput: { call_id: 'c1', command: ['bash', '-lc', "echo 'ran' | tee ran.txt"], cwd: '/w' },
      },
      undefined,
    );
    assert.equal(entry.input, `bash -lc 'echo '\\''ran'\\'' | tee ran.txt'`);
    assert.equal(commandLine(['ls', '-la', '', 'a b', '/w/x.ts']), "ls -la '' 'a b' /w/x.ts");
  });

  it("keeps an edit's diff when its last update replaces the content with text (OpenCode)", () => {
    const edit = toolEntryFromCall(
      'e1',
      {
        toolCallId: 't',
        title: 'edit',
        kind: 'edit',
        content: [{ type: 'diff', path: '/w/a.txt', oldText: 'a\n', newText: 'b\n' }],
      },
      undefined,
    );
    const done = patchToolEntry(edit, {
      toolCallId: 't',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'Edit applied successfully.' } }],
    });
    assert.deepEqual(done.content, [
      { type: 'diff', path: '/w/a.txt', oldText: 'a\n', newText: 'b\n' },
      { type: 'content', block: { type: 'text', text: 'Edit applied successfully.' } },
    ]);
    // A new diff of the same file replaces the old one.
    const again = patchToolEntry(done, {
      toolCallId: 't',
      content: [{ type: 'diff', path: '/w/a.txt', oldText: 'a\n', newText: 'c\n' }],
    });
    assert.deepEqual(again.content, [{ type: 'diff', path: '/w/a.txt', oldText: 'a\n', newText: 'c\n' }]);
  });
});
