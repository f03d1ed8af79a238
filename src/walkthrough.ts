/**
 * The Get Started walkthrough (package.json's `contributes.walkthroughs`, its texts in walkthrough/). Its steps
 * complete on what the user really does: VS Code's own events where there is one (the chat view opened, a command
 * run, the Sessions view opened), else a context key this module sets once the thing has happened in any chat
 * (`vscode-acp.walkthrough.<step>`): an agent connected, a prompt sent, context attached, the agent's changes opened,
 * kept or undone from the Changes bar. (VS Code counts a key only when it turns true after the walkthrough was read:
 * one already true at that time completes its step in the next window.)
 */
import * as vscode from 'vscode';
import type { Chats } from './chats/chats';

/** The walkthrough's id as VS Code names it: `<publisher>.<name>#<id>`. */
export const WALKTHROUGH = 'vscode-acp.vscode-acp#acp.gettingStarted';

export type WalkthroughStep = 'connected' | 'prompted' | 'attached' | 'reviewed';

const done = new Set<WalkthroughStep>();

/** `step` happened: its context key is set (once a window). */
export function walkthroughStep(step: WalkthroughStep): void {
  if (done.has(step)) return;
  done.add(step);
  void vscode.commands.executeCommand('setContext', `vscode-acp.walkthrough.${step}`, true);
}

/** Watches the chats for the steps they show: an agent connected, an attachment in a prompt box. */
export function followWalkthrough(chats: Chats): vscode.Disposable {
  return chats.onDidChangeChat((chat) => {
    if (chat.connection === 'connected') walkthroughStep('connected');
    if (chat.composer.attachments.count > 0) walkthroughStep('attached');
  });
}

/** Opens the walkthrough (the chat's empty state offers it). */
export async function openWalkthrough(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}
