/**
 * Restricted Mode: the chat says what it turns off, and its button opens VS
 * Code's Workspace Trust editor (through the host); trusted, the note goes.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const status = (extra = {}) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'disconnected',
  turn: 'idle',
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [] },
  ...extra,
});

describe('Restricted Mode in the chat', function () {
  for (const theme of ['light', 'dark']) {
    it(`says what is off and offers Manage Workspace Trust, which the host opens (${theme})`, async () => {
      const chat = await openChatPage({ theme, width: 300 });
      try {
        await chat.clearPosted();
        const text = 'Restricted Mode: attachments are off.';
        await chat.apply({ type: 'status', status: status({ restricted: text }) });
        const note = chat.page.getByRole('note', { name: 'Restricted Mode' });
        await note.waitFor();
        assert.match(await note.innerText(), /^Restricted Mode: attachments are off\.\s*Manage$/);
        assert.deepEqual(await axeViolations(chat.page), []);
        await note.getByRole('button', { name: 'Manage Workspace Trust' }).click();
        assert.deepEqual(await chat.posted(), [{ type: 'manageTrust', chatId: 'c1' }]);
        // Trusted: the host stops saying it.
        await chat.apply({ type: 'status', status: status() });
        await note.waitFor({ state: 'detached' });
      } finally {
        await chat.close();
      }
    });
  }
});
