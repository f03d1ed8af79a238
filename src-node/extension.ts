/** Node entry: desktop VS Code and remote hosts. */
import './zodConfig';
import type * as vscode from 'vscode';
import { activateWith, type AcpExtensionApi } from '../src/extension';
import { NodePlatform } from './nodePlatform';

export function activate(context: vscode.ExtensionContext): AcpExtensionApi {
  return activateWith(context, new NodePlatform(context.storageUri));
}
