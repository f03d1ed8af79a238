/**
 * Ask Several Agents in the real workbench (code-server, issue 49): a folder in a Git repository, two scripted agents
 * given one task from the Command Palette as a person gives it (the task typed, both agents ticked), each in its own
 * worktree; the compare view shows both finished with their files and line counts; screenshots of it wide and in a
 * 300 px editor, light and dark (test-results/ui-compare-*.png); Apply of one from the view (the others discarded when
 * asked) lands its change in the folder, and only its change. Before it, the window is reloaded: the task is compared
 * again from the Command Palette (ACP: Compare the Agents of a Task...), both agents as they were.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkbench, runCommand, webviewFrame } from '../harness/code-server.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';
import { scriptedAgent, setColorTheme } from '../harness/scriptedAgent.mjs';

const RESULTS = path.join(REPO_ROOT, 'test-results');
const painter = (colour) => ({
  turns: [
    {
      match: 'paint the parser',
      steps: [
        {
          diskWrite: {
            path: '${cwd}/parser.ts',
            content: `export const colour = "${colour}";\nexport const size = 1;\n`,
          },
        },
        { text: `Painted it ${colour}.` },
      ],
    },
  ],
});
const agent = (name, colour, sessions) => scriptedAgent(name, JSON.stringify(painter(colour)), '--sessions', sessions);

async function until(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function runCompareUiTest() {
  fs.mkdirSync(RESULTS, { recursive: true });
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-ui-compare-')));
  const folder = path.join(base, 'app');
  fs.mkdirSync(folder);
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: folder,
      encoding: 'utf8',
    });
  for (const dir of ['sessions-one', 'sessions-two']) fs.mkdirSync(path.join(base, dir));
  const file = path.join(folder, 'parser.ts');
  fs.writeFileSync(file, 'export const colour = "green";\nexport const size = 1;\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'first');
  const wb = await openWorkbench({
    extensionDevelopmentPath: REPO_ROOT,
    folder,
    viewport: { width: 1100, height: 700 },
    userSettings: {
      'workbench.colorTheme': 'Default Light Modern',
      'vscode-acp.worktrees.location': path.join(base, 'worktrees'),
      'vscode-acp.agents': {
        one: agent('Agent One', 'yellow', path.join(base, 'sessions-one')),
        two: agent('Agent Two', 'purple', path.join(base, 'sessions-two')),
      },
    },
  });
  const { page } = wb;
  const shots = [];
  try {
    await runCommand(page, 'Focus on Agent Chat View');
    await webviewFrame(page, 'acp-chat-app');
    // As a person asks: the command, the task typed, both agents ticked, OK.
    await runCommand(page, 'ACP: Ask Several Agents...');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-box input').waitFor({ state: 'visible' });
    await page.keyboard.type('paint the parser');
    await page.keyboard.press('Enter');
    for (const name of ['Agent One', 'Agent Two']) {
      await widget.locator('.quick-input-list .monaco-list-row').filter({ hasText: name }).first().click();
    }
    await widget.getByRole('button', { name: 'OK' }).click();
    // The page is set anew when what it shows changes: found again for each look.
    const view = () => webviewFrame(page, '.cards', { timeout: 60_000 });
    const cardsNow = async () => (await view()).locator('section.card');
    await until(
      'both agents finished',
      async () =>
        (await (
          await view()
        )
          .getByText('finished', { exact: true })
          .count()
          .catch(() => 0)) === 2,
      60_000,
    );
    assert.deepEqual(await (await cardsNow()).locator('h2').allTextContents(), ['Agent One', 'Agent Two']);
    // The line counts follow the turn's end by a moment.
    for (let i = 0; i < 2; i++) {
      await until(`card ${i + 1}'s file and lines`, async () =>
        /1 file \+1 -1[\s\S]*parser\.ts/.test(
          await (
            await cardsNow()
          )
            .nth(i)
            .innerText()
            .catch(() => ''),
        ),
      );
    }
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      'export const colour = "green";\nexport const size = 1;\n',
      'untouched',
    );

    for (const [name, dark] of [
      ['Default Light Modern', false],
      ['Dark Modern', true],
    ]) {
      if (dark) await setColorTheme(page, name, dark);
      const kind = dark ? 'dark' : 'light';
      await page.setViewportSize({ width: 1100, height: 700 });
      let shot = path.join(RESULTS, `ui-compare-wide-${kind}.png`);
      await page.screenshot({ path: shot });
      shots.push(shot);
      // The editor 300 px wide: the side bars closed, the window narrowed (the cards stack in one column).
      if (!dark) {
        await runCommand(page, 'View: Close Primary Side Bar');
        await runCommand(page, 'View: Toggle Secondary Side Bar Visibility');
      }
      await page.setViewportSize({ width: 348, height: 700 });
      const cards = await cardsNow();
      await until('one column', async () => {
        const boxes = await Promise.all([0, 1].map((i) => cards.nth(i).boundingBox()));
        return boxes.every(Boolean) && boxes[1].y > boxes[0].y;
      });
      // The links' boxes are in the window's coordinates: each ends inside the window (348 px, the editor 300 of it).
      const width = page.viewportSize().width;
      for (const link of ['Show the chat', 'Apply', 'Open', 'Discard']) {
        const box = await cards.nth(0).getByRole('link', { name: link, exact: true }).boundingBox();
        assert.ok(box && box.x + box.width <= width + 1, `${link} is whole at ${width} px: ${JSON.stringify(box)}`);
      }
      shot = path.join(RESULTS, `ui-compare-narrow-${kind}.png`);
      await page.screenshot({ path: shot });
      shots.push(shot);
    }
    await page.setViewportSize({ width: 1100, height: 700 });

    // A window reload loses none: the task is compared again from the Command Palette, both agents as they were.
    await page.reload();
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await runCommand(page, 'ACP: Compare the Agents of a Task...');
    await widget
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: 'Task: paint the parser' })
      .first()
      .click({ timeout: 30_000 });
    for (let i = 0; i < 2; i++) {
      await until(
        `card ${i + 1} after the reload`,
        async () =>
          /finished[\s\S]*1 file \+1 -1[\s\S]*parser\.ts/.test(
            await (
              await cardsNow()
            )
              .nth(i)
              .innerText()
              .catch(() => ''),
          ),
        30_000,
      );
    }
    const reloaded = path.join(RESULTS, 'ui-compare-reloaded-dark.png');
    await page.screenshot({ path: reloaded });
    shots.push(reloaded);

    // Apply Agent Two's, and discard the other worktree when asked.
    await (await cardsNow()).nth(1).getByRole('link', { name: 'Apply', exact: true }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.getByText(/Discard the other worktree of this task \(Agent One\)/).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Discard Others' }).click();
    await until('the change applied', () => fs.readFileSync(file, 'utf8').includes('purple'));
    assert.equal(git('status', '--porcelain').trim(), 'M parser.ts', 'an unstaged change');
    await until('one worktree left', () => git('worktree', 'list').trim().split('\n').length === 2);
    return shots;
  } catch (error) {
    await page.screenshot({ path: path.join(RESULTS, 'ui-compare-failed.png') }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const shots = await runCompareUiTest();
  process.stdout.write(`screenshots: ${shots.join(', ')}\n`);
}
