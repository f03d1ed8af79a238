/**
 * UI test: an agent message of 8 MiB on one line (Markdown punctuation all
 * through it) in the real workbench. The chat shows its first part and says
 * how long it is; "Open the whole message in an editor" opens it; the
 * workbench and the chat keep answering throughout. (One such message once
 * froze the whole window for minutes.)
 *
 * Run after `npm run build`: node test/ui/hugeMessage.ui.mjs
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand } from '../harness/code-server.mjs';
import { openScenarioChat } from '../harness/scenarioChat.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';

const SIZE = 8 * 1024 * 1024;

/** Resolves with how long `probe` took, or rejects when it takes longer than `ms`. */
async function answersWithin(what, ms, probe) {
  const start = Date.now();
  let timer;
  await Promise.race([
    probe(),
    new Promise(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
    ),
  ]);
  clearTimeout(timer);
  return Date.now() - start;
}

export async function runHugeMessageUiTest() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-huge-'));
  let session;
  try {
    session = await openScenarioChat({
      folder,
      name: 'Huge Agent',
      scenario: {
        turns: [
          {
            match: 'huge',
            steps: [
              { text: 'before ' },
              { bigText: { size: SIZE, fill: 'a_b*c`d[e]f(g)h<i>&j~' } },
              { text: ' after' },
            ],
          },
          { match: '', steps: [{ text: 'still here' }] },
        ],
      },
    });
    const { page, chat, box } = session;
    await box.fill('something huge');
    await box.press('Enter');
    // While it arrives and renders, both the workbench and the chat keep answering.
    let slowest = 0;
    const note = chat.getByText(`of ${(7 + SIZE + 6).toLocaleString('en-US')} characters.`);
    const deadline = Date.now() + 60_000;
    while (!(await note.isVisible().catch(() => false))) {
      if (Date.now() > deadline) throw new Error('the chat never said how long the message is');
      slowest = Math.max(slowest, await answersWithin('the workbench', 10_000, () => page.evaluate(() => 1)));
      slowest = Math.max(slowest, await answersWithin('the chat view', 10_000, () => chat.evaluate(() => 1)));
      await new Promise((r) => setTimeout(r, 100));
    }
    await chat.getByText('Showing the first 262,144 of').waitFor();
    await chat.getByRole('button', { name: 'Open the whole message in an editor' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'Agent message' }).waitFor({ timeout: 20_000 });
    await runCommand(page, 'Focus on Agent Chat View');
    await box.fill('and now?');
    await box.press('Enter');
    await chat.locator('acp-chat-entry').getByText('still here').waitFor({ timeout: 20_000 });
    const shot = path.join(REPO_ROOT, 'test-results', 'huge-message.png');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });
    return { shot, slowestMs: slowest };
  } finally {
    await session?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runHugeMessageUiTest().then(
    (r) => console.log(`huge message test passed; slowest answer ${r.slowestMs} ms; screenshot: ${r.shot}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
