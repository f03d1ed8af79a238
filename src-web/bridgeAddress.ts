/**
 * Where the bridge is and its token: the URL lives in the
 * `vscode-acp.bridge.url` setting (the user's alone), the token only in
 * SecretStorage, bound to the address it was given with: it is never sent to
 * another (an address changed since, by hand or otherwise, asks for the token
 * again).
 */
import * as vscode from 'vscode';
import { BRIDGE_AGENT_PARAM, BRIDGE_TOKEN_PARAM } from '../src/shared/bridgeProtocol';
import { setting, setUserSetting } from '../src/settings/settings';
import { SETTINGS } from '../src/settings/settingsTable';

const TOKEN_SECRET = 'vscode-acp.bridge.token';

/** What secret storage holds: the token and the address it belongs to. */
interface StoredToken {
  readonly url: string;
  readonly token: string;
}

/** The address without its query and fragment, as tokens are bound to it; undefined when it is not a ws(s) URL. */
function addressOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return undefined;
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

export class BridgeAddress {
  /** The input box asking for the token, while it is open (askForToken). */
  private asking: Promise<string | undefined> | undefined;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  get url(): string {
    return setting('bridge.url') || SETTINGS['bridge.url'].default;
  }

  /**
   * The URL to open, with the token; asks for the token once when there is none for this address (none stored, or
   * one given with another address).
   */
  async connectUrl(agentId: string | undefined): Promise<string | undefined> {
    const address = addressOf(this.url);
    if (!address) {
      void vscode.window.showErrorMessage(
        `The bridge address "${this.url}" is not a ws:// or wss:// URL: set vscode-acp.bridge.url, or paste the URL the bridge printed.`,
      );
      return undefined;
    }
    const stored = await this.stored();
    const token =
      stored?.url === address
        ? stored.token
        : await this.askForToken(
            stored
              ? `The bridge's address is now ${address}; its token was given for ${stored.url} and is not sent elsewhere. Paste the URL the bridge printed.`
              : undefined,
          );
    // The answer may have set another address: the token goes only with its own.
    const given = await this.stored();
    if (!token || !given || given.token !== token) return undefined;
    const url = new URL(given.url);
    url.searchParams.set(BRIDGE_TOKEN_PARAM, token);
    if (agentId) url.searchParams.set(BRIDGE_AGENT_PARAM, agentId);
    return url.toString();
  }

  private async stored(): Promise<StoredToken | undefined> {
    const raw = await this.secrets.get(TOKEN_SECRET);
    if (!raw) return undefined;
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value !== 'object' || value === null) return undefined;
      const { url, token } = value as Record<string, unknown>;
      return typeof url === 'string' && typeof token === 'string' ? { url, token } : undefined;
    } catch {
      // A token stored before tokens were bound to an address: it names none, so it is asked for again.
      return undefined;
    }
  }

  private async store(url: string, token: string): Promise<void> {
    const stored: StoredToken = { url, token };
    await this.secrets.store(TOKEN_SECRET, JSON.stringify(stored));
  }

  /**
   * Takes what the bridge printed: a full URL (address and token) or only the
   * token (for the address set now). The address goes to the user's setting,
   * the token to secret storage with the address it belongs to.
   */
  async setFrom(input: string): Promise<boolean> {
    const text = input.trim();
    if (/^wss?:\/\//i.test(text)) {
      let token: string | null;
      try {
        token = new URL(text).searchParams.get(BRIDGE_TOKEN_PARAM);
      } catch {
        return false;
      }
      const address = addressOf(text);
      if (!token || !address) return false;
      await setUserSetting('bridge.url', address);
      await this.store(address, token);
      return true;
    }
    const address = addressOf(this.url);
    if (!/^[A-Za-z0-9_-]{16,}$/.test(text) || !address) return false;
    await this.store(address, text);
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
  askForToken(why?: string): Promise<string | undefined> {
    this.asking ??= this.ask(why).finally(() => {
      this.asking = undefined;
    });
    return this.asking;
  }

  private async ask(why: string | undefined): Promise<string | undefined> {
    const input = await vscode.window.showInputBox({
      title: 'Connect to the ACP bridge',
      prompt:
        why ?? 'Paste the URL the bridge printed when it started (node dist/bridge/bridge.js -- <agent command>).',
      placeHolder: 'ws://127.0.0.1:7878/acp?token=…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === '' || /^wss?:\/\/.*[?&]token=|^[A-Za-z0-9_-]{16,}$/i.test(value.trim())
          ? undefined
          : 'Paste the whole URL with its token, or the token alone.',
    });
    if (!input || !(await this.setFrom(input))) return undefined;
    return (await this.stored())?.token;
  }
}
