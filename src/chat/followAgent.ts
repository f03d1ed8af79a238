/**
 * "Follow the agent" (opt-in, per chat, off by default): while a turn runs,
 * the file and line of the current tool call's location open in a preview
 * editor without taking focus, as Zed's follow does. Only files inside a
 * trusted local workspace folder (the platform's check, as for a clicked
 * location); anything else is skipped quietly. A burst of tool calls opens
 * only the newest location, at most every FOLLOW_MS.
 */
import type * as vscode from 'vscode';
import { type Disposable } from '../shared/events';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Platform, WindowPort } from '../platform';

const FOLLOW_MS = 250;

export class FollowAgent implements Disposable {
  enabled = false;
  private next: { path: string; line?: number } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = '';

  constructor(
    private readonly platform: Platform,
    private readonly window: WindowPort,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Where the host can tell a workspace file (Node: trusted local folders); never on the web, nor in Restricted Mode. */
  get offered(): boolean {
    return this.platform.workspaceFile !== undefined && this.window.trusted();
  }

  /** A session update during a turn. */
  onUpdate(update: SessionUpdate): void {
    if (!this.enabled || (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update')) return;
    const location = update.locations?.[0];
    if (!location || typeof location.path !== 'string') return;
    const line =
      typeof location.line === 'number' && Number.isSafeInteger(location.line) && location.line > 0
        ? location.line
        : undefined;
    this.next = { path: location.path, ...(line ? { line } : {}) };
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.open();
    }, FOLLOW_MS);
  }

  private async open(): Promise<void> {
    const next = this.next;
    this.next = undefined;
    if (!next || !this.enabled) return;
    const key = `${next.path}:${next.line ?? ''}`;
    if (key === this.last) return;
    this.last = key;
    try {
      const uri = await this.platform.workspaceFile?.(next.path);
      if (!uri || !this.enabled) return;
      await this.window.showFile(uri, next.line);
    } catch (error) {
      this.log.warn(`Follow the agent: could not open a location: ${String(error)}`);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.enabled = false;
  }
}
