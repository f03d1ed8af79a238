/**
 * Both hosts: a chat with the host's test agent (on the web host, through the
 * bridge) is in this workspace's history after its first turn, under its
 * agent in the Sessions tree; opened again it shows its transcript at once,
 * and the first prompt continues the session, which the agent remembers.
 */
import { emptySessionControls } from '../../../src/shared/sessionControls';
import type { Thread } from '../../../src/shared/thread';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import * as assert from './assert';
import { acpApi } from './chatWaits';
import { chatWithTestAgent, hostSetup } from './host';
import { talkOnce } from './savedChats';

/** The entries as Markdown: the controls belong to a live session, not to the saved one. */
const entries = (thread: Thread) => threadToMarkdown({ ...thread, controls: emptySessionControls });

suite('chat history', function () {
  this.timeout(60_000);

  test('saved after its first turn, shown in the Sessions tree, opened again at once, and its session continues', async () => {
    await chatWithTestAgent();
    const api = await acpApi();
    const { sessionId, markdown } = await talkOnce(api, hostSetup.agentId, 'remember these words');
    const entry = (await api.sessions.list()).find((s) => s.sessionId === sessionId);
    assert.ok(entry, 'the chat is in this workspace\'s history');
    assert.equal(entry!.title, 'remember these words');

    api.sessionsTree.refresh();
    const agentNode = (await api.sessionsTree.getChildren()).find((n) => n.kind === 'agent' && n.agentId === hostSetup.agentId);
    assert.ok(agentNode, 'the test agent has a node in the Sessions tree');
    const labels = (await api.sessionsTree.getChildren(agentNode)).map((n) => String(api.sessionsTree.getTreeItem(n).label));
    // The test agent cannot list its sessions: the tree shows this workspace's history.
    assert.ok(labels.includes('remember these words'), labels.join(' / '));

    const opened = await api.chats.openSaved(entry!);
    assert.equal(api.chats.shown, opened);
    assert.equal(opened.connection, 'disconnected', 'shown before any agent is asked');
    assert.equal(entries(opened.thread), markdown);
    await opened.send('recall the history');
    const text = entries(opened.thread);
    assert.ok(text.startsWith(markdown), text);
    assert.match(text, /The session continues \(resumed by the agent\)/);
    assert.match(text, /\[history of [^:]+: remember these words \| recall the history\]/);
    await api.chats.close(opened.id);
  });
});
