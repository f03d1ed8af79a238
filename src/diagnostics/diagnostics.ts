/**
 * The ACP Diagnostics output channel (`vscode-acp.diagnostics.enabled`, off
 * by default): one JSON record per message of every agent connection, made
 * by messageRecord.ts (structure only, never content). ACP: Show
 * Diagnostics shows it, and offers to turn it on.
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import { Correlation, messageRecord, type Direction } from './messageRecord';
import { affectsSetting, setting, setUserSetting } from '../settings/settings';

export class Diagnostics implements vscode.Disposable {
  private channel: vscode.LogOutputChannel | undefined;
  private enabled = setting('diagnostics.enabled');
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (affectsSetting(e, 'diagnostics.enabled')) this.enabled = setting('diagnostics.enabled');
  });

  /** Streams to put in an agent connection's two directions (they pass every message on unchanged). */
  tap(agent: string): {
    incoming: TransformStream<AnyMessage, AnyMessage>;
    outgoing: TransformStream<AnyMessage, AnyMessage>;
  } {
    const out = new Correlation();
    const inc = new Correlation();
    const observe = (dir: Direction) =>
      new TransformStream<AnyMessage, AnyMessage>({
        transform: (message, controller) => {
          if (this.enabled) {
            try {
              const record =
                dir === 'out'
                  ? messageRecord('out', message, out, inc, performance.now())
                  : messageRecord('in', message, inc, out, performance.now());
              this.output().info(JSON.stringify({ agent, ...record }));
            } catch {
              // A record that cannot be made is not worth a message.
            }
          }
          controller.enqueue(message);
        },
      });
    return { incoming: observe('in'), outgoing: observe('out') };
  }

  /** One record of something else an agent did through the extension (a call to the editor server): structure only. */
  record(record: object): void {
    if (this.enabled) this.output().info(JSON.stringify(record));
  }

  async show(): Promise<void> {
    if (!this.enabled) {
      const on = 'Turn On';
      const pick = await vscode.window.showInformationMessage(
        'ACP diagnostics are off. Turned on, every message to and from agents is recorded there: its method, timing, outcome and sizes, never its content.',
        on,
      );
      if (pick !== on) return;
      await setUserSetting('diagnostics.enabled', true);
      this.enabled = true;
    }
    this.output().show(true);
  }

  private output(): vscode.LogOutputChannel {
    this.channel ??= vscode.window.createOutputChannel('ACP Diagnostics', { log: true });
    return this.channel;
  }

  dispose(): void {
    this.subscription.dispose();
    this.channel?.dispose();
  }
}
