/**
 * A worker thread (dist/node/lineWorker.js) that parses an agent's long lines away from the extension host's thread
 * (see largeLines.ts): each line it is given comes back cut to the wire bounds, or comes back empty when there was
 * nothing to cut (one long text, which the SDK parses in a few milliseconds) or it was not a JSON object (the SDK
 * answers that).
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { parentPort } from 'node:worker_threads';
import { bounded } from '../../src/connection/wire/wireBounds';
import type { LineAsked, LineAnswered } from './largeLines';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function shorter(bytes: Uint8Array): Uint8Array | undefined {
  let message: unknown;
  try {
    message = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const cut = bounded(message as AnyMessage);
  return cut === message ? undefined : encoder.encode(JSON.stringify(cut));
}

parentPort?.on('message', ({ id, bytes }: LineAsked) => {
  const line = shorter(bytes);
  const answer: LineAnswered = { id, line };
  parentPort?.postMessage(answer, line ? [line.buffer as ArrayBuffer] : []);
});
