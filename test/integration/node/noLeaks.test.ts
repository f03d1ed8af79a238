/**
 * Node host: once every suite has ended and every chat is closed, no agent, command or anything else the extension
 * started is left running below the extension host (the process keeper aside, which stays with its host, and VS Code's
 * own extensions' servers).
 */
import * as assert from '../shared/assert';
import { acpApi } from '../shared/chatWaits';
import { leftProcesses } from '../../fixtures/leftProcesses';

after(async function () {
  this.timeout(30_000);
  const api = await acpApi();
  for (const chat of [...api.chats.all]) await api.chats.close(chat.id);
  // VS Code's own extensions (language servers for the files tests opened) run below the same host.
  const left = await leftProcesses(10_000, /\/lib\/vscode\/extensions\//);
  assert.deepEqual(left, [], `processes left running once every chat is closed:\n${left.join('\n')}`);
});
