/** The suites run in the Node extension host. */
import '../shared/chat.test';
import '../shared/twoChats.test';
import './files.test';
import './terminals.test';
import './hang.test';
import './continue.test';
import './pendingPrompt.test';
import './unansweredStop.test';
import './hugeMessage.test';
import './permissionFlood.test';
import './misbehaving.test';
import './agentShapes.test';
import './installAgent.test';
import './longTranscript.test';
import './chats.test';
import './history.test';
import './sessionsTree.test';
