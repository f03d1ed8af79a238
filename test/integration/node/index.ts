/**
 * Integration test runner for the Node extension host (code-server): the
 * extension spawns the scripted test agent itself.
 */
import Mocha from 'mocha';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { setHostSetup } from '../shared/host';

export function run(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  // Sessions outlive the agent process, so a restarted agent can continue one.
  const sessions = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-node-sessions-'));
  setHostSetup({
    agentId: 'test',
    reportsStrayOutput: true,
    editorServer: true,
    mcpSecret: process.env.ACP_TEST_MCP_SECRET,
    // code-server's Node host is a remote host on Linux with a trusted local folder.
    expectedCapabilities:
      '{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"session":{"compaction":{},"configOptions":{"boolean":{}},"notices":{}},"auth":{"terminal":true},"elicitation":{"form":{},"url":{}},"_meta":{"terminal_output":true,"subagent-transcript":true,"terminal-auth":true}}',
    configureAgent: () =>
      Promise.resolve(
        vscode.workspace.getConfiguration('vscode-acp').update(
          'agents',
          {
            test: {
              name: 'Test Agent',
              command: process.execPath,
              args: [
                path.join(root, 'dist/test/agent.js'),
                path.join(root, 'test/integration/scenario.json'),
                '--sessions',
                sessions,
              ],
            },
          },
          vscode.ConfigurationTarget.Global,
        ),
      ),
  });
  // ACP_TEST_GREP=<suite words> runs only the matching tests (when working on one).
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: 'spec',
    grep: process.env.ACP_TEST_GREP,
  });
  // The tests are bundled into this file: register mocha's globals, then load them.
  mocha.suite.emit('pre-require', globalThis, 'bundle', mocha);
  require('./tests');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
