/**
 * Rename: the user names a chat. The name is the chat's at once (its line in
 * the list, the header; Chats tells the history) and stays: the agent's later
 * titles do not replace it. Where the agent stores titles (`session/set_title`,
 * `sessionCapabilities.title`: codex-acp), it is given the name too, and the
 * chat shows the form the agent stored. A chat named before its session
 * opened (a new chat, a saved one renamed while closed) tells the agent when
 * it attaches to a session (titleToAgent).
 */
import { deadline } from '../connection/abandon';
import { errorMessage } from '../errorText';
import type { ChatLink } from '../session/chatLink';
import { titleText } from '../shared/text/titleText';
import type { ChatTranscript } from './chatTranscript';

/** What renaming needs of its chat. */
export interface TitledChat {
  readonly link: ChatLink;
  readonly transcript: ChatTranscript;
}

/** How long the agent has to store a title; after that the chat keeps its own and says so. */
export const SET_TITLE_TIMEOUT_MS = 10_000;

/** Where the name is kept: also by the agent, or by this window (and its history) only; undefined: no name (blank). */
export type Renamed = 'agent' | 'local' | undefined;

export async function renameChat(chat: TitledChat, wanted: string): Promise<Renamed> {
  const title = titleText(wanted);
  if (!title) return undefined;
  chat.transcript.dispatch({ type: 'renamed', title });
  const c = chat.link.current;
  const setTitle = c.state === 'connected' ? c.session.lease.connection.client.setSessionTitle : undefined;
  if (c.state !== 'connected' || !setTitle) return 'local';
  // Unanswered in time: the agent is told the request is given up (`$/cancel_request`).
  const wait = deadline(SET_TITLE_TIMEOUT_MS, `no answer in ${SET_TITLE_TIMEOUT_MS / 1000} s`);
  // Still this session, and not renamed again meanwhile: what the agent says is about this name.
  const current = () => chat.link.current === c && chat.transcript.title === title;
  try {
    const stored = titleText((await setTitle(c.session.sessionId, title, wait.signal)) ?? '');
    if (stored && stored !== title && current()) chat.transcript.dispatch({ type: 'renamed', title: stored });
    return 'agent';
  } catch (error) {
    if (current()) {
      chat.transcript.notice(
        'warning',
        `The agent did not store the new title (${errorMessage(error)}): this window and its history keep it.`,
      );
    }
    return 'local';
  } finally {
    wait.clear();
  }
}

/** The chat's session is attached: a name the user gave it goes to an agent that stores titles (again, if it had it). */
export function titleToAgent(chat: TitledChat): void {
  const { title, titleByUser } = chat.transcript.value;
  if (!titleByUser || !title) return;
  const c = chat.link.current;
  if (c.state === 'connected' && c.session.lease.connection.client.setSessionTitle) void renameChat(chat, title);
}
