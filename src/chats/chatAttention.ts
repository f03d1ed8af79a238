/**
 * What each open chat wants of the user, as the chat list shows it: its
 * marker (asks permission, asks something, working, failed, or finished out
 * of sight until shown) and its line in the list, announced only when it
 * changed (a streamed chunk changes no line). No two lines read alike
 * (toldApart).
 */
import type { ChatMarker, ChatSummary } from '../shared/page/protocol';
import type { Chat } from '../chat/chat';

export class ChatAttention {
  /** Chats that finished a turn (or failed) out of sight, until shown. */
  private readonly unseen = new Set<Chat>();
  /** Each chat's line as last announced. */
  private readonly lines = new Map<Chat, string>();

  constructor(
    /** An agent's name as the list shows it. */
    private readonly agentName: (agentId: string) => string,
  ) {}

  /** A chat opened: its line as it is now is the one announced. */
  opened(chat: Chat): void {
    this.lines.set(chat, JSON.stringify(this.summary(chat)));
  }

  /** Whether `chat`'s line differs from the one last announced (and from now on it is the announced one). */
  lineChanged(chat: Chat): boolean {
    const line = JSON.stringify(this.summary(chat));
    if (line === this.lines.get(chat)) return false;
    this.lines.set(chat, line);
    return true;
  }

  /** A turn of `chat` ended while another chat was shown: marked finished until shown. */
  endedUnseen(chat: Chat): void {
    this.unseen.add(chat);
  }

  /** Shown (or closed): not unseen any more. */
  seen(chat: Chat): void {
    this.unseen.delete(chat);
  }

  closed(chat: Chat): void {
    this.unseen.delete(chat);
    this.lines.delete(chat);
  }

  summary(chat: Chat): ChatSummary {
    const agentId = chat.agentId;
    return {
      id: chat.id,
      title: chat.title ?? 'New chat',
      agentName: agentId ? this.agentName(agentId) : 'No agent',
      marker: this.marker(chat),
      ...(chat.place?.task ? { group: chat.place.task } : {}),
    };
  }

  marker(chat: Chat): ChatMarker {
    if (chat.permissions.prompts.length > 0) return 'permission';
    if (chat.elicitations.views.length > 0) return 'question';
    if (chat.thread.turn === 'running') return 'running';
    if (chat.connection === 'failed') return 'failed';
    if (this.unseen.has(chat)) return 'finished';
    return 'none';
  }
}

/**
 * The open chats' lines with no two alike: a chat whose title and agent an earlier one in the list already has (two
 * new chats, a branch before the agent names it) is numbered after its title, "New chat (2)", with the first number
 * no other line has. Where the user tells chats apart: the list, the view's header (viewDescription).
 */
export function toldApart(lines: readonly ChatSummary[]): ChatSummary[] {
  const key = (title: string, agentName: string) => `${agentName}\u0000${title}`;
  /** Every line's own title, and every number given. */
  const taken = new Set(lines.map((l) => key(l.title, l.agentName)));
  /** The titles a line already has as its own (the first with each keeps it). */
  const kept = new Set<string>();
  return lines.map((line) => {
    const own = key(line.title, line.agentName);
    if (!kept.has(own)) {
      kept.add(own);
      return line;
    }
    let n = 2;
    while (taken.has(key(`${line.title} (${n})`, line.agentName))) n++;
    const title = `${line.title} (${n})`;
    taken.add(key(title, line.agentName));
    return { ...line, title };
  });
}

/** What the chat view's own header (its description) says of the shown chat: its line's title and agent. */
export function viewDescription(lines: readonly ChatSummary[], shownId: string | undefined): string {
  const line = lines.find((l) => l.id === shownId);
  return line ? `${line.title} · ${line.agentName}` : '';
}
