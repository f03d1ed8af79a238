/**
 * Integration test runner for the web worker extension host (@vscode/test-web):
 * the extension reaches the scripted test agent through the real bridge,
 * which the harness started and whose URL it left in the workspace folder.
 */
import 'mocha/mocha';
import * as vscode from 'vscode';
import { setHostSetup } from '../shared/host';
import { BRIDGE_URL_FILE, harnessFile } from './harnessFiles';

export function run(): Promise<void> {
  setHostSetup({
    agentId: 'bridge',
    reportsStrayOutput: true,
    editorServer: true,
    mcpSecret: undefined,
    // The agent works next to the bridge: no files, no terminals from the web worker.
    expectedCapabilities:
      '{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false,"session":{"compaction":{},"configOptions":{"boolean":{}},"notices":{}},"auth":{"terminal":false},"elicitation":{"form":{},"url":{}},"_meta":{"terminal_output":true,"subagent-transcript":true}}',
    configureAgent: async () => {
      const url = await harnessFile(BRIDGE_URL_FILE);
      const ok = await vscode.commands.executeCommand<boolean>('vscode-acp.setBridgeToken', url);
      if (!ok) throw new Error(`the bridge URL was refused: ${url.replace(/token=.*/, 'token=…')}`);
    },
  });
  mocha.setup({ ui: 'bdd', reporter: undefined, timeout: 60_000 });
  require('./tests');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
