/** The suites run with real agents in the Node extension host. */
import './claude.test';
