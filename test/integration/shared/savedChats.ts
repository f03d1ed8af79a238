/** A chat that had one turn (so it is in this workspace's history), then was closed. */
import type { AcpExtensionApi } from '../../../src/extension';
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
  await chat.send(text);
  const sessionId = chat.session!.sessionId;
  // The controls belong to the live session, not to the saved transcript.
  const markdown = threadToMarkdown({ ...chat.thread, controls: emptySessionControls });
  // Saved at the end of the turn; the write is queued.
  for (let i = 0; i < 50 && !(await api.sessions.list()).some((s) => s.sessionId === sessionId); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await api.chats.close(chat.id);
  return { sessionId, markdown };
}
