/**
 * Node host: attachments in every form the agent's `promptCapabilities`
 * allow (embedded, image, or a link the agent opens itself), the fallbacks
 * past the limits, and hostile files on disk (a symlink out of the
 * workspace, binary posing as text, an image whose bytes are another type,
 * a 2 GB file, a file swapped for a link between pick and send). Nothing
 * the user typed or attached is lost when a prompt cannot go.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { attachData, attachSelection } from '../../../src/attachments/attach';
import type { OpenChat } from '../../../src/extension';
import type { AcpExtensionApi } from '../../../src/extension';
import * as assert from '../shared/assert';
import { PIXEL_PNG, reportedBlocks } from '../shared/attachmentFixtures';
import { acpApi, waitFor } from '../shared/chatWaits';
import { scenarioAgent } from './scenarioAgents';
import { chatStatus } from '../../../src/views/chatStatus';

const report = { turns: [{ match: '', steps: [{ reportPrompt: true }] }] };
const agents = {
  plain: scenarioAgent('Text Only Agent', { ...report, agentCapabilities: {} }),
  embeds: scenarioAgent('Embedding Agent', {
    ...report,
    agentCapabilities: { promptCapabilities: { embeddedContext: true } },
  }),
  images: scenarioAgent('Image Agent', { ...report, agentCapabilities: { promptCapabilities: { image: true } } }),
};

describe('attachments (Node host)', function () {
  this.timeout(60_000);
  let api: AcpExtensionApi;
  let dir: string;
  const file = (name: string, content: string | Uint8Array) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, content);
    return vscode.Uri.file(p);
  };

  before(async () => {
    await vscode.workspace.getConfiguration('vscode-acp').update('agents', agents, vscode.ConfigurationTarget.Global);
    api = await acpApi();
    await api.chat.refreshAgents();
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'attach-node');
    fs.mkdirSync(dir, { recursive: true });
  });

  async function chatWith(agentId: string): Promise<OpenChat> {
    const chat = api.chats.newChat();
    chat.selectAgent(agentId);
    return chat;
  }

  async function attach(chat: OpenChat, ...uris: vscode.Uri[]): Promise<void> {
    await vscode.commands.executeCommand('vscode-acp.attachFiles', uris);
    await waitFor(chat, 'the attachments read', () =>
      chatStatus(chat).attachments.every((a) => a.state !== 'preparing'),
    );
  }

  async function sent(chat: OpenChat, text: string): Promise<unknown[]> {
    await chat.composer.send(text);
    const last = chat.thread.entries.at(-1);
    return reportedBlocks(last?.kind === 'assistant' ? last.text : `(no reply: ${last?.kind})`);
  }

  it('an agent that takes neither: files go as links it can open; the chips say nothing is wrong', async () => {
    const chat = await chatWith('plain');
    const notes = file('notes.txt', 'some notes\n');
    const pixel = file('pixel.png', PIXEL_PNG);
    await attach(chat, notes, pixel);
    assert.deepEqual(
      chatStatus(chat).attachments.map((a) => a.state),
      ['ready', 'ready'],
    );
    assert.deepEqual(await sent(chat, 'links please'), [
      { type: 'text', text: 'links please' },
      { type: 'resource_link', uri: notes.toString(), name: 'notes.txt', size: 11 },
      {
        type: 'resource_link',
        uri: pixel.toString(),
        name: 'pixel.png',
        mimeType: 'image/png',
        size: PIXEL_PNG.length,
      },
    ]);
    await api.chats.close(chat.id);
  });

  it('embedded context only: text embedded, the image a link; image only: the image inline, text a link', async () => {
    const notes = file('notes.txt', 'some notes\n');
    const pixel = file('pixel.png', PIXEL_PNG);
    const embeds = await chatWith('embeds');
    await attach(embeds, notes, pixel);
    assert.deepEqual(await sent(embeds, 'go'), [
      { type: 'text', text: 'go' },
      { type: 'resource', uri: notes.toString(), mimeType: 'text/plain', text: 'some notes\n' },
      {
        type: 'resource_link',
        uri: pixel.toString(),
        name: 'pixel.png',
        mimeType: 'image/png',
        size: PIXEL_PNG.length,
      },
    ]);
    await api.chats.close(embeds.id);
    const images = await chatWith('images');
    await attach(images, notes, pixel);
    assert.deepEqual(await sent(images, 'go'), [
      { type: 'text', text: 'go' },
      { type: 'resource_link', uri: notes.toString(), name: 'notes.txt', size: 11 },
      { type: 'image', mimeType: 'image/png', bytes: PIXEL_PNG.length, uri: pixel.toString() },
    ]);
    await api.chats.close(images.id);
  });

  it('a pasted image the agent cannot take is refused: nothing is sent, the text and the image come back with the reason', async () => {
    const chat = await chatWith('plain');
    attachData(chat.composer.attachments, 'screenshot.png', btoa(String.fromCharCode(...PIXEL_PNG)));
    await waitFor(chat, 'read', () => chatStatus(chat).attachments[0]?.state === 'ready');
    await chat.composer.send('look at this');
    assert.equal(chat.thread.entries.filter((e) => e.kind === 'user').length, 0, 'no prompt was sent');
    assert.equal(chatStatus(chat).returnedDraft?.text, 'look at this');
    assert.deepEqual(
      chatStatus(chat).attachments.map((a) => [a.label, a.state, a.message]),
      [['screenshot.png', 'error', 'The agent does not accept images.']],
    );
    const notice = chat.thread.entries.at(-1);
    assert.match(
      notice?.kind === 'notice' ? notice.text : '',
      /^The prompt was not sent: an attachment cannot go to this agent/,
    );
    // To an agent that takes images it goes inline, with no file behind it.
    await api.chats.close(chat.id);
    const images = await chatWith('images');
    attachData(images.composer.attachments, 'screenshot.png', btoa(String.fromCharCode(...PIXEL_PNG)));
    await waitFor(images, 'read', () => chatStatus(images).attachments[0]?.state === 'ready');
    assert.deepEqual(await sent(images, 'look'), [
      { type: 'text', text: 'look' },
      { type: 'image', mimeType: 'image/png', bytes: PIXEL_PNG.length },
    ]);
    await api.chats.close(images.id);
  });

  it('past the limits: a large file and a 2 GB one go as links (said on the chip), the eleventh attachment is not added', async () => {
    const chat = await chatWith('embeds');
    const big = file('big.txt', 'x'.repeat(1024 * 1024 + 1));
    const huge = file('huge.log', '');
    fs.truncateSync(huge.fsPath, 2 * 1024 ** 3);
    await attach(chat, big, huge);
    assert.deepEqual(
      chatStatus(chat).attachments.map((a) => a.message),
      [
        'Larger than 1 MiB: sent as a link where the agent can open it.',
        'Larger than 1 MiB: sent as a link where the agent can open it.',
      ],
    );
    const blocks = (await sent(chat, 'big ones')) as Array<{ type: string }>;
    assert.deepEqual(
      blocks.map((b) => b.type),
      ['text', 'resource_link', 'resource_link'],
    );
    const many = Array.from({ length: 11 }, (_, i) => file(`many-${i}.txt`, `file ${i}\n`));
    await attach(chat, ...many);
    assert.equal(chatStatus(chat).attachments.length, 10);
    for (const a of [...chatStatus(chat).attachments]) chat.composer.attachments.remove(a.id);
    await api.chats.close(chat.id);
  });

  it('hostile files: a symlink out of the workspace, binary posing as text, an image that is another type', async () => {
    const chat = await chatWith('embeds');
    const link = path.join(dir, 'passwd.txt');
    fs.rmSync(link, { force: true });
    fs.symlinkSync('/etc/passwd', link);
    const binary = file('binary.txt', Uint8Array.from([0x68, 0x69, 0x00, 0xff, 0xfe]));
    const liar = file('liar.png', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
    await attach(chat, vscode.Uri.file(link), binary, liar);
    const [escape, notText, wrongType] = chatStatus(chat).attachments;
    assert.equal(escape.state, 'error');
    assert.match(escape.message ?? '', /symbolic link/i);
    assert.equal(notText.state, 'ready');
    assert.equal(notText.message, 'Not UTF-8 text: sent as a link where the agent can open it.');
    assert.equal(wrongType.state, 'error');
    assert.equal(wrongType.message, 'Its name says image/png, but its bytes are image/jpeg.');
    // Nothing is sent while one cannot go; all three come back.
    await chat.composer.send('hostile');
    assert.equal(chat.thread.entries.filter((e) => e.kind === 'user').length, 0);
    assert.equal(chatStatus(chat).attachments.length, 3);
    assert.equal(chatStatus(chat).returnedDraft?.text, 'hostile');
    await api.chats.close(chat.id);
  });

  it('a file swapped for a symlink between pick and send is refused at send, and the prompt text comes back', async () => {
    const chat = await chatWith('embeds');
    const target = file('swapped.txt', 'harmless\n');
    await attach(chat, target);
    assert.equal(chatStatus(chat).attachments[0].state, 'ready');
    fs.rmSync(target.fsPath);
    fs.symlinkSync('/etc/passwd', target.fsPath);
    await chat.composer.send('send the swapped file');
    assert.equal(chat.thread.entries.filter((e) => e.kind === 'user').length, 0, 'nothing was sent');
    assert.equal(chatStatus(chat).attachments[0].state, 'error');
    assert.match(chatStatus(chat).attachments[0].message ?? '', /symbolic link/i);
    assert.equal(chatStatus(chat).returnedDraft?.text, 'send the swapped file');
    await api.chats.close(chat.id);
  });

  it('the selection: exact text with unsaved changes, embedded with its lines; none from an untitled document', async () => {
    const chat = await chatWith('embeds');
    const source = file('selected.ts', 'one\ntwo\nthree\nfour\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(source));
    await editor.edit((e) => e.replace(new vscode.Range(1, 0, 1, 3), 'TWO'));
    // Lines 2 and 3, the selection ending at the start of line 4 (which it does not take).
    editor.selection = new vscode.Selection(1, 0, 3, 0);
    assert.ok(attachSelection(chat.composer.attachments, editor));
    assert.deepEqual(
      chatStatus(chat).attachments.map((a) => [a.label, a.icon]),
      [['selected.ts:L2-L3', 'selection']],
    );
    assert.deepEqual(await sent(chat, 'explain'), [
      { type: 'text', text: 'explain' },
      { type: 'resource', uri: `${source.toString()}#L2-L3`, mimeType: 'text/plain', text: 'TWO\nthree\n' },
    ]);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const untitled = await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument({ content: 'scratch text' }),
    );
    untitled.selection = new vscode.Selection(0, 0, 0, 7);
    assert.equal(
      attachSelection(chat.composer.attachments, untitled),
      false,
      'an untitled document is not a workspace file',
    );
    assert.equal(chatStatus(chat).attachments.length, 0);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await api.chats.close(chat.id);
  });
});
