/**
 * Runner for the real-agent integration tests in code-server's Node extension
 * host (test/real-agents/run.mjs starts the fake model and passes the config).
 *
 * mocha stays outside the bundle and is loaded from the extension's own
 * node_modules, so the bundle works wherever it is written (dist/, or /tmp).
 */
import * as path from 'path';
import * as vscode from 'vscode';

export function run(): Promise<void> {
  const extension = vscode.extensions.getExtension('vscode-acp.vscode-acp');
  if (!extension) return Promise.reject(new Error('the extension vscode-acp.vscode-acp is not loaded'));
  // Through process.getBuiltinModule: bundlers leave it alone (webpack rewrites a
  // createRequire(...) it cannot evaluate into `undefined`).
  const { createRequire } = process.getBuiltinModule('node:module');
  const Mocha = createRequire(path.join(extension.extensionPath, 'package.json'))('mocha') as typeof import('mocha');
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 180_000, reporter: 'spec', slow: 10_000 });
  // The tests are bundled into this file: register mocha's globals, then load them.
  mocha.suite.emit('pre-require', globalThis, 'bundle', mocha);
  // test/real-agents/run.mjs opens a second window, of two folders, for an agent that takes more than one.
  if (process.env.ACP_REAL_MODE === 'folders') require('./folders.test');
  // ...and a window where two agents work side by side, each in a worktree (worktreePair.mjs).
  else if (process.env.ACP_REAL_MODE === 'worktrees') require('./worktrees.test');
  else require('./tests');
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} real-agent test(s) failed`)) : resolve()));
  });
}
