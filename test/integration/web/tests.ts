/** The suites run in the web worker extension host. */
import '../shared/chat.test';
import './reconnect.test';
import '../shared/twoChats.test';
import '../shared/notify.test';
import '../shared/elicitation.test';
import '../shared/queue.test';
import '../shared/export.test';
import '../shared/retryBranch.test';
import '../shared/history.test';
import '../shared/attachments.test';
import '../shared/editorContext.test';
import '../shared/editorServer.test';
import '../shared/mcp.test';
import './attachments.test';
import './changes.test';
import '../shared/served.test';
import './bridgeAddress.test';
