/** The bench's message generator: build.mjs bundles this file for Node. */
export { streamMessages, streamText, type TimedMessage } from './hostMessages';
export { parseMs, sessionFigures, TRANSCRIPT_MARKER, transcriptMessages, type Transcript } from './transcript';
export { markdown, seededRandom } from './corpus';
export { attachmentFigures } from './attachments';
export { ELICITATION_MARKER, elicitationMessages } from './elicitation';
