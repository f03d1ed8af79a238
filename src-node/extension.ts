/** Node entry: desktop VS Code and remote hosts. */
import './zodConfig';
import type * as vscode from 'vscode';
import { activateWith, deactivateWith, type AcpExtensionApi } from '../src/extension';
import { changesFeature } from '../src/changesFeature';
import { NodePlatform } from './nodePlatform';

export function activate(context: vscode.ExtensionContext): AcpExtensionApi {
  return activateWith(context, new NodePlatform(context.storageUri, context.globalStorageUri), changesFeature);
}

/** Waits for the chat history's writes under way (VS Code gives deactivation a few seconds). */
export function deactivate(): Promise<unknown> {
  return deactivateWith();
}
