/**
 * What happens when the user clicks something an agent sent: web links go
 * through VS Code's external-link flow (which asks about untrusted domains);
 * paths open only inside a trusted local workspace folder. Nothing opens
 * without a click.
 */
import * as vscode from 'vscode';
import type { Platform } from '../platform';

export class LinkOpener {
  constructor(
    private readonly platform: Platform,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async openLink(href: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      // Not absolute: treat it as a path in the workspace.
      return this.openLocation(href);
    }
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      await vscode.env.openExternal(vscode.Uri.parse(url.toString(), true));
    } else if (url.protocol === 'file:') {
      await this.openLocation(decodeURIComponent(url.pathname), lineFromHash(url.hash));
    } else {
      this.log.warn(`Refused to open a ${url.protocol} link from the agent.`);
      void vscode.window.showWarningMessage(`Links of the kind "${url.protocol}" from the agent are not opened.`);
    }
  }

  async openLocation(path: string, line?: number): Promise<void> {
    const uri = await this.platform.workspaceFile?.(path);
    if (!uri) {
      void vscode.window.showErrorMessage(
        `Not opened: ${truncate(path)} is not a file inside a trusted local workspace folder.`,
      );
      return;
    }
    await show(uri, line);
  }

  /**
   * A place in a workspace that is not on disk (VS Code for the Web), as VS Code named it: opened only inside a
   * workspace folder (by its URI: no disk to resolve links on), in a trusted workspace.
   */
  async openPlace(text: string, line?: number): Promise<void> {
    let uri: vscode.Uri | undefined;
    try {
      uri = vscode.Uri.parse(text, true);
    } catch {
      uri = undefined;
    }
    const folder = uri && uri.scheme !== 'file' ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    const inside = folder !== undefined && !uri!.path.split('/').includes('..');
    if (!uri || !inside || !vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage(
        `Not opened: ${truncate(text)} is not a file inside a trusted workspace folder.`,
      );
      return;
    }
    await show(uri, line);
  }
}

async function show(uri: vscode.Uri, line: number | undefined): Promise<void> {
  const position = line ? new vscode.Position(line - 1, 0) : undefined;
  await vscode.window.showTextDocument(uri, {
    preview: true,
    ...(position ? { selection: new vscode.Range(position, position) } : {}),
  });
}

function lineFromHash(hash: string): number | undefined {
  const m = /^#L?(\d+)/.exec(hash);
  return m ? Number(m[1]) : undefined;
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
