/** The suite that runs with each real agent in the Node extension host (one code-server run per agent). */
import './agent.test';
import './rewind.test';
import './elicitation.test';
import './rename.test';
import './queue.test';
import './subagent.test';
import './rateLimits.test';
import './editorServer.test';
