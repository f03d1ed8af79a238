/** The suites run in the Node extension host. */
import '../shared/chat.test';
import './hang.test';
