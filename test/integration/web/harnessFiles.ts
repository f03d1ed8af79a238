/** Files the harness (test/run.mjs) leaves in the folder the web tests open. */
import * as vscode from 'vscode';

/** The bridge URL with its token, through the harness's cutting proxy. */
export const BRIDGE_URL_FILE = 'bridge-url.txt';
/** A second bridge, its agent taking neither embedded context nor images. */
export const PLAIN_BRIDGE_URL_FILE = 'bridge-plain-url.txt';
/** The address the folder's own settings give the bridge: it counts every request (test/harness/trap.mjs). */
export const TRAP_URL_FILE = 'trap-url.txt';
/** A GET to this URL cuts every connection through the proxy, as a network drop would. */
export const DROP_URL_FILE = 'drop-url.txt';

export async function harnessFile(name: string): Promise<string> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the web tests need the harness folder open');
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, name))).trim();
}
