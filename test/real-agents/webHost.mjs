/**
 * A real agent on VS Code for the Web (the real-agents stage, after the Node host's runs): the agent, against its fake
 * model with a throwaway HOME, is served by the real bridge (dist/bridge/bridge.js) in its workspace, and test-web's
 * VS Code for the Web opens that workspace; test/integration/web/realEditor.test.ts (dist/web/test/real.js) connects
 * to the bridge and asks the agent to check the types in typed.ts: its model reaches the browser's editor server
 * through the bridge's relay, then fixes the file with the agent's own edit tool, checked here on disk. Test-web runs
 * cross-origin isolated, as vscode.dev does: TypeScript for the Web then reads greeter.ts for typed.ts's error.
 * The fake model must only have been asked what it knows.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../harness/paths.mjs';
import { startBridge } from '../harness/bridgeProcess.mjs';
import { REAL_AGENTS } from './agents.mjs';

export const WEB_BUNDLE = path.join(REPO_ROOT, 'dist/web/test/real.js');

/** @returns {Promise<number>} exit code (0 passed) */
export async function runWebEditorTest(agentId, { keep = false, timeoutMs = 300_000, log }) {
  const spec = REAL_AGENTS[agentId];
  const started = Date.now();
  await spec.install();
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `acp-real-web-${agentId}-ws-`)));
  const e = spec.scenario(workspace).editor;
  fs.writeFileSync(path.join(workspace, 'README.md'), '# real-agent test workspace (VS Code for the Web)\n');
  fs.writeFileSync(e.greeter.file, e.greeter.content);
  fs.writeFileSync(e.typed.file, e.typed.content);
  fs.writeFileSync(
    path.join(workspace, 'real-editor.json'),
    JSON.stringify({
      agent: spec.name,
      marker: e.marker,
      typed: path.basename(e.typed.file),
      greeter: path.basename(e.greeter.file),
    }),
  );
  const fakeLines = [];
  const { fake, home, agent } = await spec.start({ workspace, log: (line) => fakeLines.push(line) });
  let bridge;
  try {
    bridge = await startBridge(workspace, undefined, undefined, agent.env, [agent.command, ...agent.args]);
    fs.writeFileSync(path.join(workspace, 'bridge-url.txt'), bridge.url);
    log(`${agentId} (web): workspace ${workspace}, agent HOME ${home}, fake model ${fake.url}`);
    const { runWebHostTests } = await import('../harness/test-web.mjs');
    let code = await runWebHostTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: WEB_BUNDLE,
      folderPath: workspace,
      timeoutMs,
      coi: true,
    });
    // The agent's edit, on the disk it works on (the browser's workspace is test-web's copy in memory).
    const onDisk = fs.readFileSync(e.typed.file, 'utf8');
    if (code === 0 && onDisk !== e.typed.fixed) {
      log(`${agentId} (web): FAIL: typed.ts on disk is not fixed:\n${onDisk}`);
      code = 1;
    }
    const asked = fakeLines.filter((l) => l.startsWith('unknown request'));
    if (asked.length) {
      log(`${agentId} (web): the fake model was asked what it does not know:\n  ${asked.join('\n  ')}`);
      if (code === 0) code = 1;
    }
    if (code !== 0) log(`${agentId} (web): fake endpoint log:\n  ${fakeLines.join('\n  ')}`);
    log(`${agentId} (web): done in ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code}`);
    return code;
  } finally {
    bridge?.stop();
    await fake.close();
    if (keep) log(`kept ${workspace} and ${home}`);
    else for (const dir of [workspace, home]) fs.rmSync(dir, { recursive: true, force: true });
  }
}
