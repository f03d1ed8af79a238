/**
 * A multi-root workspace (folders `alpha` and `beta`; `gamma` beside them is
 * no workspace folder, made by test/run.mjs): an agent that takes more folders
 * (`additionalDirectories`) is given both, and the extension's own handlers
 * serve both and nothing else; one that does not is given its own folder
 * only, the chat says so, and beta is refused to it (reads, attachment links).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, lastReply, waitFor } from '../shared/chatWaits';
import { reportedBlocks } from '../shared/attachmentFixtures';
import { addFiles } from '../../../src/attachments/attach';
import type { OpenChat } from '../../../src/extension';
import { focusFolder, folder, notices } from './mcpChat';
import { chatStatus } from '../../../src/views/chatStatus';

interface AgentDefinition {
  name: string;
  command: string;
  args: string[];
}

describe('an agent given the folders of a multi-root workspace', function () {
  this.timeout(60_000);
  let alpha: string;
  let beta: string;
  let gamma: string;
  let scratch: string;

  before(async () => {
    alpha = folder('alpha').fsPath;
    beta = folder('beta').fsPath;
    gamma = path.join(path.dirname(alpha), 'gamma');
    assert.ok(fs.existsSync(path.join(gamma, 'secret.txt')), 'gamma is beside the workspace folders');
    // The same scripted agent, without `additionalDirectories` and without embedded context (attachments go as links).
    const agent = (globalThis as { acpTestAgent?: AgentDefinition }).acpTestAgent!;
    const scenarioFile = agent.args[1];
    const scenario = JSON.parse(fs.readFileSync(scenarioFile, 'utf8')) as {
      agentCapabilities: { sessionCapabilities: Record<string, unknown>; promptCapabilities: Record<string, unknown> };
    };
    delete scenario.agentCapabilities.sessionCapabilities.additionalDirectories;
    scenario.agentCapabilities.promptCapabilities = {};
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-roots-'));
    const single = path.join(scratch, 'single-root.json');
    fs.writeFileSync(single, JSON.stringify(scenario));
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        test: agent,
        single: { ...agent, name: 'Single Folder Agent', args: [agent.args[0], single] },
      },
      vscode.ConfigurationTarget.Global,
    );
    await (await acpApi()).chat.refreshAgents();
  });

  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  async function chatIn(agentId: string): Promise<OpenChat> {
    await focusFolder(folder('alpha'));
    const chat = (await acpApi()).chats.newChat();
    chat.selectAgent(agentId);
    return chat;
  }

  async function reply(chat: OpenChat, text: string): Promise<string> {
    await chat.composer.send(text);
    return lastReply(chat);
  }

  it('the agent that takes them works in both folders, and is refused a third beside them', async () => {
    const chat = await chatIn('test');
    try {
      assert.equal(await reply(chat, 'report roots'), `[roots: ${JSON.stringify([alpha, beta])}]`);
      assert.equal(notices(chat), '', 'nothing said: every folder was given');
      assert.equal(await reply(chat, 'read the first folder'), '[read: # alpha\n]');
      assert.equal(await reply(chat, 'read the second folder'), '[read: # beta\n]');
      const beside = await reply(chat, 'read beside the folders');
      assert.match(beside, /^\[error: .*gamma.*not inside a workspace folder/);
      assert.ok(!beside.includes("gamma's secret"), 'nothing of the file');

      assert.equal(await reply(chat, 'write the second folder'), '[write ok]');
      assert.equal(fs.readFileSync(path.join(beta, 'from-the-agent.txt'), 'utf8'), 'written in the second folder\n');

      const run = chat.composer.send('run pwd in the second folder');
      await waitFor(chat, 'the consent prompt', () => chatStatus(chat).permissions.length === 1);
      assert.match(chatStatus(chat).permissions[0].tool.input ?? '', /beta/, 'the prompt names the folder');
      chat.permissions.answer(chatStatus(chat).permissions[0].requestId, 'allow_once');
      await run;
      assert.match(lastReply(chat), new RegExp(`^\\[terminal: exit 0\\] ${fs.realpathSync(beta)}\\s*$`));
      assert.match(
        await reply(chat, 'run pwd beside the folders'),
        /^\[error: The folder ".*gamma" is outside the folders it was given \(".*alpha", ".*beta"\)\.\]$/,
      );
      assert.equal(chatStatus(chat).permissions.length, 0, 'a refused folder asks nothing');
    } finally {
      fs.rmSync(path.join(beta, 'from-the-agent.txt'), { force: true });
      await (await acpApi()).chats.close(chat.id);
    }
  });

  it('an agent that takes one folder works in its own: the chat says so, beta is refused to it', async () => {
    const chat = await chatIn('single');
    try {
      assert.equal(await reply(chat, 'report roots'), `[roots: ${JSON.stringify([alpha])}]`);
      assert.equal(
        notices(chat),
        'beta is not given to the agent: it works in one folder only (it does not take more: ACP additionalDirectories). This chat reads, writes and runs commands for it in alpha only.',
      );
      assert.equal(await reply(chat, 'read the first folder'), '[read: # alpha\n]');
      assert.equal(
        await reply(chat, 'read the folder beta'),
        `[error: ${path.join(beta, 'README.md')} is in the workspace folder beta, which this agent was not given.]`,
      );

      // Without embedded context, a file goes as a link: only one the agent was given.
      addFiles(chat.composer.attachments, [vscode.Uri.file(path.join(alpha, 'README.md'))]);
      await waitFor(chat, 'read', () => chatStatus(chat).attachments.every((a) => a.state === 'ready'));
      const blocks = reportedBlocks(await reply(chat, 'report prompt')) as { type: string; uri?: string }[];
      assert.deepEqual(
        blocks.map((b) => [b.type, b.uri]),
        [
          ['text', undefined],
          ['resource_link', vscode.Uri.file(path.join(alpha, 'README.md')).toString()],
        ],
      );
      addFiles(chat.composer.attachments, [vscode.Uri.file(path.join(beta, 'README.md'))]);
      await waitFor(chat, 'read', () => chatStatus(chat).attachments.every((a) => a.state === 'ready'));
      const before = chat.thread.entries.length;
      await chat.composer.send('report prompt');
      assert.deepEqual(
        chatStatus(chat).attachments.map((a) => [a.state, a.message]),
        [['error', 'The agent does not accept embedded files, and it cannot open this one itself.']],
        'not sent: the agent was not given beta',
      );
      assert.match(
        chat.thread.entries
          .slice(before)
          .map((e) => (e.kind === 'notice' ? e.text : ''))
          .join(''),
        /The prompt was not sent/,
      );
    } finally {
      await (await acpApi()).chats.close(chat.id);
    }
  });
});
