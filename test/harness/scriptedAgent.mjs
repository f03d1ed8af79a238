/**
 * The scripted test agent (test/agent/, built to dist/test/agent.js) as VS Code's settings name an agent, and the
 * workbench's colour theme switched as a person switches it: what the UI tests that drive it share.
 */
import { runCommand } from './code-server.mjs';
import { TEST_AGENT_JS } from './paths.mjs';

/** An entry of `vscode-acp.agents`: the scripted agent named `name`, given `args` (a scenario file or its JSON first). */
export function scriptedAgent(name, ...args) {
  return { name, command: process.execPath, args: [TEST_AGENT_JS, ...args] };
}

/** User settings whose one agent, selected, is the scripted agent playing `scenario` (a file or its JSON). */
export function scriptedAgentSettings(scenario, name = 'Test Agent') {
  return { 'vscode-acp.agents': { test: scriptedAgent(name, scenario) }, 'vscode-acp.defaultAgent': 'test' };
}

/** Preferences: Color Theme, the theme's name, its row: resolves once the workbench is dark or light as asked. */
export async function setColorTheme(page, name, dark) {
  await runCommand(page, 'Preferences: Color Theme');
  await page.keyboard.type(name);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: name }).first().click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.waitForFunction(
    (d) => document.querySelector('.monaco-workbench')?.classList.contains('vs-dark') === d,
    dark,
    { timeout: 30_000 },
  );
}
