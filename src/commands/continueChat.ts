/**
 * Continue with Another Agent (issue 49): a new chat with the agent the user picks, in the same folder or worktree,
 * whose prompt box holds the conversation so far (shared/handover.ts: the transcript bounded, the files not kept yet)
 * as an attached Markdown resource, ready to send as it is or after a word of what to do next. The old chat stays
 * open and says where it went on.
 */
import * as vscode from 'vscode';
import type { AgentList } from '../agents/agentList';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import { addAttachments } from '../attachments/attach';
import { handoverText } from '../shared/handover';
import { titleText } from '../shared/text/titleText';

/** What the new chat's prompt box holds, above the attached conversation. */
export const HANDOVER_PROMPT = 'Continue the conversation attached where it left off.';

export async function continueWithAnotherAgent(
  chats: Chats,
  agentList: Pick<AgentList, 'agents' | 'name'>,
  agentId?: string,
): Promise<Chat | undefined> {
  const source = chats.shown;
  if (!source.hasConversation) {
    void vscode.window.showInformationMessage('Nothing to continue yet: this chat has no conversation.');
    return undefined;
  }
  const chosen = agentId ?? (await pickAgent(agentList, source.agentId));
  if (!chosen) return undefined;
  const from = source.agentId ? agentList.name(source.agentId) : 'another agent';
  const unkept = source.changes?.status.files.map((f) => f.label) ?? [];
  const text = handoverText(source.thread, from, unkept);
  const chat = chats.newChatAt(source.place, chosen);
  addAttachments(chat.composer.attachments, [
    {
      source: {
        type: 'text',
        label: `The conversation with ${from}`,
        uri: 'acp:conversation.md',
        text,
        mimeType: 'text/markdown',
      },
      look: {
        label: `Conversation with ${from}`,
        detail: `${text.length.toLocaleString('en-US')} characters`,
        icon: 'comment',
      },
    },
  ]);
  chat.handBackDraft(HANDOVER_PROMPT);
  const title = titleText(source.title ?? '', 80);
  chat.say(
    'info',
    `This chat continues ${title ? `"${title}"` : 'a chat'} with ${from}: the conversation${unkept.length > 0 ? ` and the ${unkept.length} changed ${unkept.length === 1 ? 'file' : 'files'} not kept yet` : ''} is attached to the prompt below. Send it as it is, or add what to do next.`,
  );
  source.say('info', `Continued with ${agentList.name(chosen)} in a new chat.`);
  return chat;
}

async function pickAgent(
  agentList: Pick<AgentList, 'agents'>,
  current: string | undefined,
): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(
    agentList.agents
      .filter((a) => a.available)
      .map((a) => ({ label: a.name, description: a.id === current ? "this chat's agent" : undefined, id: a.id })),
    { title: 'Continue with Another Agent', placeHolder: 'Which agent continues this conversation?' },
  );
  return picked?.id;
}
