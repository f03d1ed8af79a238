/**
 * The largest ACP message accepted from an agent (one line of its output,
 * started locally or behind the bridge) or from a bridge client (one frame).
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
