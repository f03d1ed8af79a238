/** The bench's message generator: build.mjs bundles this file for Node. */
export { streamMessages, streamText, type TimedMessage } from './hostMessages';
export { parseMs, sessionFigures, TRANSCRIPT_MARKER, transcriptMessages, type Transcript } from './transcript';
export { editedFile, markdown, seededRandom, sourceFile } from './corpus';
export { attachmentFigures } from './attachments';
export { ELICITATION_MARKER, elicitationMessages } from './elicitation';
export { DAY_MARKER, dayOfWork, switchAway } from './longChats';
export { TEN_CHATS, tenChatsHeap } from './tenChats';
