/**
 * The MCP sources in the windows the main suites do not open (Node host,
 * code-server): a multi-root workspace (`ACP_WORKSPACE_MODE=multi-root`),
 * an untrusted folder in Restricted Mode (`restricted`) and a trusted folder
 * that is a hostile Git repository (`hostile-git`). test/run.mjs makes
 * the folders and starts one code-server for each.
 */
import Mocha from 'mocha';
import * as path from 'path';
import * as vscode from 'vscode';

export function run(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const mode = process.env.ACP_WORKSPACE_MODE;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  mocha.suite.emit('pre-require', globalThis, 'bundle', mocha);
  (globalThis as { acpTestAgent?: unknown }).acpTestAgent = {
    name: 'Test Agent',
    command: process.execPath,
    args: [path.join(root, 'dist/test/agent.js'), path.join(root, 'test/integration/scenario.json')],
  };
  if (mode === 'multi-root') {
    require('./multiRoot.test');
    require('./roots.test');
  } else if (mode === 'restricted') require('./restricted.test');
  else if (mode === 'hostile-git') require('./hostileGit.test');
  else {
    return Promise.reject(
      new Error(`ACP_WORKSPACE_MODE is ${JSON.stringify(mode)}: multi-root, restricted or hostile-git`),
    );
  }
  void vscode;
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
