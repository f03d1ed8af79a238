/**
 * A real workbench (code-server, Node extension host) whose one agent is the
 * scripted test agent playing `scenario`, with the chat view open and
 * connected: where the UI tests and the workbench bench start.
 */
import * as fs from 'node:fs';
import { openWorkbench, runCommand, webviewFrame } from './code-server.mjs';
import { REPO_ROOT } from './paths.mjs';
import { scriptedAgent } from './scriptedAgent.mjs';

/**
 * `folder` is the workspace (the caller makes and removes it); the scenario
 * is written beside it and removed by `close()`. `userSettings` and `env`
 * (code-server's environment, which the extension host inherits) are added.
 * @returns {Promise<{ wb: Awaited<ReturnType<typeof openWorkbench>>, page: import('playwright-core').Page,
 *   chat: import('playwright-core').Frame, box: import('playwright-core').Locator,
 *   send(text: string): Promise<void>, close(): Promise<void> }>}
 */
export async function openScenarioChat({ folder, scenario, name = 'Scenario Agent', userSettings = {}, env = {} }) {
  const file = `${folder}-scenario.json`;
  fs.writeFileSync(file, JSON.stringify(scenario));
  let wb;
  try {
    wb = await openWorkbench({
      extensionDevelopmentPath: REPO_ROOT,
      folder,
      userSettings: {
        'vscode-acp.agents': { scenario: scriptedAgent(name, file) },
        'vscode-acp.defaultAgent': 'scenario',
        ...userSettings,
      },
      env,
    });
    await runCommand(wb.page, 'Focus on Agent Chat View');
    const chat = await webviewFrame(wb.page, 'acp-chat-app');
    await chat.getByRole('button', { name: 'Connect' }).click();
    // The test agent's own name, from its initialize answer.
    await chat.getByText('Test Agent').first().waitFor({ timeout: 20_000 });
    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    const send = async (text) => {
      await box.fill(text);
      await box.press('Enter');
    };
    const opened = wb;
    return {
      wb,
      page: wb.page,
      chat,
      box,
      send,
      close: async () => {
        await opened.close();
        fs.rmSync(file, { force: true });
      },
    };
  } catch (error) {
    await wb?.close();
    fs.rmSync(file, { force: true });
    throw error;
  }
}
