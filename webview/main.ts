/** The chat webview: registers the elements; <acp-chat-app> does the rest. */
// First: zod must be configured before any schema is defined (imports run in order).
import './zod-config';
import './chat-app/chat-app';
