/**
 * Where the bridge is and its token: the URL lives in the
 * `vscode-acp.bridge.url` setting, the token only in SecretStorage.
 */
import * as vscode from 'vscode';
import { BRIDGE_AGENT_PARAM, BRIDGE_TOKEN_PARAM } from '../src/shared/bridgeProtocol';
import { setting, setUserSetting } from '../src/settings/settings';
import { SETTINGS } from '../src/settings/settingsTable';

const TOKEN_SECRET = 'vscode-acp.bridge.token';

export class BridgeAddress {
  /** The input box asking for the token, while it is open (askForToken). */
  private asking: Promise<string | undefined> | undefined;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  get url(): string {
    return setting('bridge.url') || SETTINGS['bridge.url'].default;
  }

  /** The URL to open, with the token; asks for the token once when there is none. */
  async connectUrl(agentId: string | undefined): Promise<string | undefined> {
    const token = (await this.secrets.get(TOKEN_SECRET)) ?? (await this.askForToken());
    if (!token) return undefined;
    const url = new URL(this.url);
    url.searchParams.set(BRIDGE_TOKEN_PARAM, token);
    if (agentId) url.searchParams.set(BRIDGE_AGENT_PARAM, agentId);
    return url.toString();
  }

  /**
   * Takes what the bridge printed: a full URL (address and token) or only the
   * token. The address goes to the setting, the token to secret storage.
   */
  async setFrom(input: string): Promise<boolean> {
    const text = input.trim();
    if (/^wss?:\/\//i.test(text)) {
      const url = new URL(text);
      const token = url.searchParams.get(BRIDGE_TOKEN_PARAM);
      if (!token) return false;
      url.search = '';
      await setUserSetting('bridge.url', url.toString());
      await this.secrets.store(TOKEN_SECRET, token);
      return true;
    }
    if (!/^[A-Za-z0-9_-]{16,}$/.test(text)) return false;
    await this.secrets.store(TOKEN_SECRET, text);
    return true;
  }

  async forgetToken(): Promise<void> {
    await this.secrets.delete(TOKEN_SECRET);
  }

  /**
   * Asks for the bridge's URL or token; callers that ask while the box is open (two chats connecting at once, a
   * reconnect beside a click on Connect) share it: VS Code shows one input box at a time, and a second would cancel
   * the first.
   */
  askForToken(): Promise<string | undefined> {
    this.asking ??= this.ask().finally(() => {
      this.asking = undefined;
    });
    return this.asking;
  }

  private async ask(): Promise<string | undefined> {
    const input = await vscode.window.showInputBox({
      title: 'Connect to the ACP bridge',
      prompt: 'Paste the URL the bridge printed when it started (node dist/bridge/bridge.js -- <agent command>).',
      placeHolder: 'ws://127.0.0.1:7878/acp?token=…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === '' || /^wss?:\/\/.*[?&]token=|^[A-Za-z0-9_-]{16,}$/i.test(value.trim())
          ? undefined
          : 'Paste the whole URL with its token, or the token alone.',
    });
    if (!input || !(await this.setFrom(input))) return undefined;
    return this.secrets.get(TOKEN_SECRET);
  }
}
