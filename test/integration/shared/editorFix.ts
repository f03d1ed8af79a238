/**
 * The editor server with a real agent, as both hosts check it (test/integration/real/editorServer.test.ts on the Node
 * host, test/integration/web/realEditor.test.ts behind the bridge): TypeScript's report on typed.ts awaited, the
 * user's words sent with whatever the agent asks allowed, then the model's reply (quoting both answers,
 * test/real-agents/editorScript.mjs's learned()) and the two calls listed under it, as VS Code answered them.
 */
import * as vscode from 'vscode';
import type { EditorCall } from '../../../src/shared/editorCalls';
import type { Entry } from '../../../src/shared/thread/thread';
import { chatStatus } from '../../../src/views/chatStatus';
import type { OpenChat } from '../../../src/extension';
import * as assert from './assert';
import { transcript, waitFor } from './chatWaits';

/** Resolves when `uri`'s diagnostics satisfy `check` (TypeScript reports on open files, in its own time). */
export async function diagnosticsOf(uri: vscode.Uri, what: string, check: (codes: string[]) => boolean): Promise<void> {
  const deadline = Date.now() + 90_000;
  const codes = () =>
    vscode.languages.getDiagnostics(uri).map((d) => String(typeof d.code === 'object' ? d.code.value : d.code));
  while (!check(codes())) {
    if (Date.now() > deadline) throw new Error(`TypeScript did not report ${what} in 90 s: ${codes().join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Sends `marker`, allowing whatever the agent asks (printed under `name`), until the turn ends; then checks the reply
 * and the calls listed after it. Returns the turn's entries and the definition call (its place is the host's to
 * check).
 */
export async function askAndCheckFix(
  chat: OpenChat,
  name: string,
  marker: string,
): Promise<{ entries: readonly Entry[]; definition: EditorCall }> {
  const answered = new Map<string, string>();
  const watch = chat.onDidChange(() => {
    for (const p of chatStatus(chat).permissions) {
      if (answered.has(p.requestId)) continue;
      answered.set(p.requestId, p.tool.title);
      chat.permissions.answer(p.requestId, 'allow_once');
    }
  });
  const before = chat.thread.entries.length;
  try {
    await chat.composer.send(marker);
    await waitFor(chat, 'the end of the turn', () => chat.thread.turn === 'idle', 180_000);
  } finally {
    watch.dispose();
  }
  const entries = chat.thread.entries.slice(before);
  const shown = transcript(chat).slice(-4000);
  console.log(`    EDITOR ${name} asked: ${[...answered.values()].join(' | ') || 'nothing'}`);
  const calls = entries.flatMap((x) => (x.kind === 'tool' ? [x.title] : []));
  console.log(`    EDITOR ${name} tool calls: ${calls.join(' | ')}`);
  // The model got both answers: its reply quotes them, and it fixed the file.
  const replies = entries.flatMap((x, i) => (x.kind === 'assistant' ? [{ i, text: x.text }] : []));
  const reply = replies.at(-1);
  assert.ok(reply, `an answer: ${shown}`);
  assert.match(reply.text, /typed\.ts has error 2322;/, shown);
  assert.match(reply.text, /Greeter is defined at greeter\.ts:1:14\./, shown);
  assert.match(reply.text, /I fixed typed\.ts\.$/, shown);
  // Under the answer, the two calls as VS Code answered them.
  const at = entries.findIndex((x) => x.kind === 'editorCalls');
  const listed = entries[at];
  assert.ok(listed?.kind === 'editorCalls', `an editorCalls entry: ${shown}`);
  assert.ok(at > reply.i, `after the answer: ${entries.map((x) => x.kind).join(', ')}`);
  assert.deepEqual(
    listed.calls.map((c) => c.tool),
    ['problems', 'definition'],
    JSON.stringify(listed.calls),
  );
  const [problems, definition] = listed.calls;
  assert.match(problems!.about, /^problems in typed\.ts: 1 \(1 error\)$/, JSON.stringify(problems));
  assert.match(definition!.about, /^definition at typed\.ts:2:27: greeter\.ts:1:14$/, JSON.stringify(definition));
  assert.equal(definition!.line, 1);
  return { entries, definition: definition! };
}
