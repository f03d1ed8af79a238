/** Web worker entry: VS Code for the Web (vscode.dev). */
import type * as vscode from 'vscode';
import { activateWith, deactivateWith, type AcpExtensionApi } from '../src/extension';
import { WebPlatform } from './webPlatform';

export function activate(context: vscode.ExtensionContext): AcpExtensionApi {
  return activateWith(context, new WebPlatform(context.secrets));
}

/** Waits for the chat history's writes under way (VS Code gives deactivation a few seconds). */
export function deactivate(): Promise<unknown> {
  return deactivateWith();
}
