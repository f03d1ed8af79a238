import * as assert from 'node:assert/strict';
import { buildPrompt, type PromptAttachment } from '../../../../src/attachments/promptBlocks';
import { NO_QUIRKS, quirksOf } from '../../../../src/agents/agentQuirks';

const attachment = (id: string, prepared: PromptAttachment['prepared']): PromptAttachment => ({
  id,
  prepared,
  shown: { label: id, icon: 'file' },
});
const file = attachment('a', {
  kind: 'text',
  uri: 'file:///w/a.ts',
  name: 'a.ts',
  text: 'const a = 1;',
  bytes: 12,
  linkable: true,
});
const picture = attachment('b', {
  kind: 'image',
  uri: 'file:///w/b.png',
  name: 'b.png',
  mimeType: 'image/png',
  data: 'AAAA',
  bytes: 3,
  linkable: true,
});
const capabilities = { embeddedContext: true, image: true };
const types = (r: ReturnType<typeof buildPrompt>) => (r.ok ? r.blocks.map((b) => b.type) : [...r.errors.values()]);

describe('agent quirks', () => {
  it('an agent not listed, or without a name, has none', () => {
    assert.deepEqual(quirksOf('claude-agent-acp'), NO_QUIRKS);
    assert.deepEqual(quirksOf(undefined), NO_QUIRKS);
    assert.deepEqual(quirksOf('Gemini-CLI'), NO_QUIRKS, 'names are matched as the agent sends them');
  });

  it('Gemini CLI drops images beside resources: its prompt sends the file as fenced text, so that the image arrives', () => {
    assert.equal(quirksOf('gemini-cli').resourcesDropImages, true);
    assert.deepEqual(types(buildPrompt('look', [file, picture], capabilities, quirksOf('gemini-cli'))), [
      'text',
      'text',
      'image',
    ]);
    assert.deepEqual(types(buildPrompt('look', [file, picture], capabilities, quirksOf('opencode'))), [
      'text',
      'resource',
      'image',
    ]);
  });

  it("Claude Code's adapter and codex-acp fork at a message; other agents' forks are whole", () => {
    assert.equal(quirksOf('@agentclientprotocol/claude-agent-acp').forksAtMessage, true);
    assert.equal(quirksOf('@agentclientprotocol/codex-acp').forksAtMessage, true);
    assert.equal(quirksOf('OpenCode').forksAtMessage, false);
  });
});
