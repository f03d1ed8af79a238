/** What the attachment tests share: a tiny image, and the test agent's report of a prompt. */
import * as assert from './assert';

/** A 1x1 PNG. */
export const PIXEL_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/** The blocks the test agent says it received (its `reportPrompt` step). */
export function reportedBlocks(reply: string): unknown[] {
  const json = /^\[prompt: (.*)\]$/s.exec(reply)?.[1];
  assert.ok(json, `a prompt report, not: ${reply.slice(0, 300)}`);
  return JSON.parse(json!) as unknown[];
}
