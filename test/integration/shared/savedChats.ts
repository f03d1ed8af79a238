/** A chat that had one turn (so it is in this workspace's history), then was closed. */
import type { AcpExtensionApi } from '../../../src/extension';
import type { SessionNode } from '../../../src/history/sessionsTree';
import { emptySessionControls } from '../../../src/shared/sessionControls';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';

/**
 * Opens a chat with `agentId`, sends `text`, waits until the history has its
 * session, closes it; resolves with the session id and the transcript (no controls) as it was.
 */
export async function talkOnce(
  api: AcpExtensionApi,
  agentId: string,
  text: string,
): Promise<{ sessionId: string; markdown: string }> {
  const chat = api.chats.newChat();
  chat.selectAgent(agentId);
  await chat.composer.send(text);
  const sessionId = chat.sessionRef!.sessionId;
  // The controls belong to the live session, not to the saved transcript.
  const markdown = threadToMarkdown({ ...chat.thread, controls: emptySessionControls });
  // Saved at the end of the turn; the write is queued.
  for (let i = 0; i < 50 && !(await api.sessions.list()).some((s) => s.sessionId === sessionId); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await api.chats.close(chat.id);
  return { sessionId, markdown };
}

/** The Sessions tree's children of `agentId`'s node: a root node when installed, else under "Install more agents…". */
export async function agentChildren(api: AcpExtensionApi, agentId: string): Promise<SessionNode[]> {
  const roots = await api.sessionsTree.getChildren();
  const more = roots.find((n) => n.kind === 'more');
  const candidates = [...roots, ...(more ? await api.sessionsTree.getChildren(more) : [])];
  const node = candidates.find((n) => n.kind === 'agent' && n.agentId === agentId);
  if (!node) throw new Error(`the Sessions tree has no node for ${agentId}`);
  return api.sessionsTree.getChildren(node);
}
