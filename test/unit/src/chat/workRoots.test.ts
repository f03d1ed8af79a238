/**
 * The folders of a multi-root workspace given to an agent (no VS Code, the
 * scripted agent): one that advertises `additionalDirectories` gets them on
 * every session it opens; one that does not gets its own folder only (it
 * refuses the field), and the chat says which folders it was not given.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import { MAX_ADDITIONAL_DIRECTORIES, workRoots } from '../../../../src/connection/workRoots';
import { pathInside } from '../../../../src/shared/text/pathInside';
import { scriptedHost, until, type ScriptedHost } from './scriptedHost';

const turns = [{ match: 'report roots', steps: [{ reportRoots: true }] }];
const takes = { agentCapabilities: { sessionCapabilities: { additionalDirectories: {}, resume: {} } } };
const notices = (chat: Chat) => chat.thread.entries.flatMap((e) => (e.kind === 'notice' ? [e.text] : []));

describe('the folders given to an agent (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  afterEach(() => host.dispose());

  async function roots(chat: Chat): Promise<unknown> {
    await chat.composer.send('report roots');
    const last = chat.thread.entries.at(-1);
    const text = last?.kind === 'assistant' ? last.text : '';
    return JSON.parse(/^\[roots: (.*)\]$/.exec(text)?.[1] ?? 'null');
  }

  it('an agent that takes more folders gets every other folder, on new and resumed sessions, and nothing is said', async () => {
    host = scriptedHost(
      { ...takes, turns },
      { otherFolders: ['/scripted/second', '/scripted/third'], keepsSessions: true },
    );
    const chat = await host.connectedChat();
    assert.deepEqual(await roots(chat), ['/scripted/workspace', '/scripted/second', '/scripted/third']);
    assert.deepEqual(notices(chat), []);
    const sessionId = chat.sessionRef?.sessionId;
    host.instances[0].drop();
    await until('the chat to reconnect', () => chat.connection === 'connected' && host.instances.length === 2);
    assert.equal(chat.sessionRef?.sessionId, sessionId, 'resumed');
    assert.deepEqual(await roots(chat), ['/scripted/workspace', '/scripted/second', '/scripted/third']);
  });

  it('an agent that does not take them works in its own folder, and the chat names the folders left out', async () => {
    host = scriptedHost({ turns }, { otherFolders: ['/scripted/second'] });
    const chat = await host.connectedChat();
    assert.deepEqual(await roots(chat), ['/scripted/workspace'], 'the field was not sent (the agent refuses it)');
    assert.deepEqual(notices(chat), [
      'second is not given to the agent: it works in one folder only (it does not take more: ACP additionalDirectories). This chat reads, writes and runs commands for it in workspace only.',
    ]);
  });

  it('a single-folder workspace gives nothing more and says nothing', async () => {
    host = scriptedHost({ ...takes, turns });
    const chat = await host.connectedChat();
    assert.deepEqual(await roots(chat), ['/scripted/workspace']);
    assert.deepEqual(notices(chat), []);
  });

  it('gives at most 64 further folders, never cwd twice, and says how many were left out', () => {
    const init = { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { additionalDirectories: {} } } };
    const many = Array.from({ length: 70 }, (_, i) => `/w/f${i}`);
    const roots = workRoots('/w/f0', [...many, '/w/f1'], init);
    assert.equal(roots.additional.length, MAX_ADDITIONAL_DIRECTORIES);
    assert.equal(roots.additional[0], '/w/f1');
    assert.deepEqual(roots.leftOut, ['/w/f65', '/w/f66', '/w/f67', '/w/f68', '/w/f69']);
  });

  it('a path is inside a folder only below a separator', () => {
    assert.ok(pathInside('/w/a/x.ts', '/w/a'));
    assert.ok(pathInside('/w/a', '/w/a'));
    assert.ok(!pathInside('/w/ab/x.ts', '/w/a'), 'a sibling with the same start');
    assert.ok(pathInside('C:\\w\\a\\x.ts', 'C:\\w\\a'));
    assert.ok(!pathInside('C:\\w\\ab', 'C:\\w\\a'));
  });

  it('a chat in a worktree has a process of its own there, its only folder; chats there share it', async () => {
    host = scriptedHost({ ...takes, turns }, { otherFolders: ['/scripted/second'] });
    const inWorkspace = await host.connectedChat();
    assert.deepEqual(await roots(inWorkspace), ['/scripted/workspace', '/scripted/second']);
    const place = { path: '/worktrees/app-1', folder: '/scripted/workspace', label: 'detached at 1234567' };
    const first = host.chats.newChatAt(place);
    assert.equal(first.place, place);
    assert.deepEqual(await roots(first), ['/worktrees/app-1'], 'the worktree only: no workspace folder');
    assert.equal(host.instances.length, 2, 'a process for the worktree');
    assert.match(
      notices(first)[0] ?? '',
      /^This chat works in its own worktree \(detached at 1234567\) at \/worktrees\/app-1/,
    );
    const second = host.chats.newChatAt(place);
    assert.deepEqual(await roots(second), ['/worktrees/app-1']);
    assert.equal(host.instances.length, 2, 'the same worktree: the same process');
    assert.deepEqual(
      await roots(inWorkspace),
      ['/scripted/workspace', '/scripted/second'],
      'the workspace chat as it was',
    );
  });
});
