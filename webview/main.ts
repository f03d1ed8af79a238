/** The chat webview: registers the elements; <acp-chat-app> does the rest. */
import './chat-app/chat-app';
