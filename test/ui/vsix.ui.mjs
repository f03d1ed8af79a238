/**
 * The packaged extension: `npm run package` gives a .vsix that installs into
 * code-server (no development path) and shows the chat.
 *
 * Run after `npm run package`: node test/ui/vsix.ui.mjs
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';

export async function runVsixTest() {
  const vsix = path.join(REPO_ROOT, 'vscode-acp.vsix');
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run package first`);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-vsix-'));
  const wb = await openWorkbench({ folder, vsix: [vsix] });
  try {
    await runCommand(wb.page, 'Focus on Agent Chat View');
    const chat = await webviewFrame(wb.page, 'acp-chat-app');
    // The built-in agents are listed by the installed extension.
    await chat
      .locator('acp-composer-toolbar select[aria-label="Agent"] option', { hasText: 'OpenCode' })
      .waitFor({ state: 'attached', timeout: 20_000 });
    // Connect when the selected agent is installed here, else Install (its npm install, run only when clicked).
    await chat.getByRole('button', { name: /^(Connect|Install)$/ }).waitFor();
    const shot = path.join(REPO_ROOT, 'test-results', 'vsix-chat.png');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await wb.page.screenshot({ path: shot });
    return shot;
  } finally {
    await wb.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runVsixTest().then(
    (shot) => console.log(`vsix test passed; screenshot: ${shot}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
