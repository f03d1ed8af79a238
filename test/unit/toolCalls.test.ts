import * as assert from 'node:assert/strict';
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { MAX_TERMINAL_CHARS, patchToolEntry, toolEntryFromCall } from '../../src/shared/toolCalls';

describe('tool call terminal output', () => {
  const start = toolEntryFromCall('e1', { toolCallId: 't', title: 'run', kind: 'execute', _meta: { terminal_info: { terminal_id: 'x' } } }, undefined);
  const output = (id: string, data: string): ToolCallUpdate => ({ toolCallId: 't', _meta: { terminal_output: { terminal_id: id, data } } });

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
    const entry = patchToolEntry(start, { toolCallId: 't', _meta: { terminal_output: { terminal_id: 5, data: {} }, terminal_exit: 'nope' } });
    assert.deepEqual(entry.content, start.content);
  });
});

describe('client terminal output in tool calls', () => {
  it('shows output that arrived before the tool call named the terminal, and what comes after', async () => {
    const { reduceThread } = await import('../../src/shared/threadReducer');
    const { emptyThread } = await import('../../src/shared/thread');
    let thread = reduceThread(emptyThread, { type: 'terminal', id: 'a', terminalId: 'term-1', data: 'early\n' });
    thread = reduceThread(thread, { type: 'update', id: 'b', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'run', kind: 'execute', content: [{ type: 'terminal', terminalId: 'term-1' }] } });
    thread = reduceThread(thread, { type: 'terminal', id: 'c', terminalId: 'term-1', data: 'late\n' });
    thread = reduceThread(thread, { type: 'terminal', id: 'd', terminalId: 'term-1', exit: { exitCode: 2, signal: null } });
    const tool = thread.entries[0];
    assert.equal(tool.kind, 'tool');
    if (tool.kind !== 'tool') return;
    assert.deepEqual(tool.content, [{ type: 'terminal', terminalId: 'term-1', output: 'early\nlate\n', exitCode: 2, signal: null }]);
  });
});
