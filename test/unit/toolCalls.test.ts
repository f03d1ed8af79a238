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
