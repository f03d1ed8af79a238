/**
 * Reads what the user attached, and decides what it is: text (UTF-8, no
 * NUL), an image (PNG, JPEG, GIF or WebP by its bytes, matching its name),
 * or, for a picked file that is neither or too large, a link. Throws an
 * Error whose message goes on the chip.
 */
import * as vscode from 'vscode';
import type { AttachmentFiles } from '../platform';
import { AttachmentTooLargeError } from '../platform';
import { imageTypeByName, imageTypeOf, MAX_EMBEDDED_TEXT_BYTES, MAX_IMAGE_BYTES, sizeText } from '../shared/attachments';
import type { PreparedAttachment } from './promptBlocks';

/** What the user attached. */
export type AttachmentSource =
  /** A workspace file: picked, dragged from the Explorer, mentioned. Read again when sent. */
  | { readonly type: 'file'; readonly uri: vscode.Uri }
  /** Content with no file behind it: pasted, or dropped from outside VS Code. */
  | { readonly type: 'data'; readonly name: string; readonly bytes: Uint8Array }
  /** The editor selection, as it was when added (unsaved changes included). */
  | { readonly type: 'selection'; readonly uri: vscode.Uri; readonly label: string; readonly text: string; readonly startLine: number; readonly endLine: number };

export async function prepareAttachment(source: AttachmentSource, files: AttachmentFiles): Promise<PreparedAttachment> {
  switch (source.type) {
    case 'file': return prepareFile(source.uri, files);
    case 'data': return prepareData(source.name, source.bytes);
    case 'selection': {
      const bytes = new TextEncoder().encode(source.text).length;
      if (bytes > MAX_EMBEDDED_TEXT_BYTES) throw new Error(`The selection is ${sizeText(bytes)}; at most ${sizeText(MAX_EMBEDDED_TEXT_BYTES)} is sent.`);
      return { kind: 'selection', uri: source.uri.toString(), label: source.label, text: source.text, startLine: source.startLine, endLine: source.endLine };
    }
  }
}

async function prepareFile(uri: vscode.Uri, files: AttachmentFiles): Promise<PreparedAttachment> {
  if (!vscode.workspace.isTrusted) throw new Error('Files can be attached only in a trusted workspace.');
  const name = baseName(uri);
  const linkable = files.linkable(uri);
  const claimed = imageTypeByName(name);
  let bytes: Uint8Array;
  try {
    // Read (through the host's checks) even when an editor has unsaved text: that proves where the file is.
    bytes = await files.read(uri, claimed ? MAX_IMAGE_BYTES : MAX_EMBEDDED_TEXT_BYTES);
  } catch (error) {
    if (!(error instanceof AttachmentTooLargeError)) throw error;
    const why = `Larger than ${sizeText(claimed ? MAX_IMAGE_BYTES : MAX_EMBEDDED_TEXT_BYTES)}`;
    const dirty = claimed ? undefined : unsavedText(uri);
    if (dirty === undefined) return { kind: 'link', uri: uri.toString(), name, why, linkable, ...(error.size !== undefined ? { size: error.size } : {}), ...(claimed ? { mimeType: claimed } : {}) };
    bytes = new Uint8Array(0);
  }
  const actual = imageTypeOf(bytes);
  if (claimed || actual) {
    if (claimed && actual !== claimed) throw new Error(`Its name says ${claimed}, but its bytes are ${actual ?? 'not an image of a known type'}.`);
    return { kind: 'image', uri: uri.toString(), name, mimeType: actual!, data: base64(bytes), bytes: bytes.length, linkable };
  }
  const dirty = unsavedText(uri);
  const text = dirty ?? utf8Text(bytes);
  if (text === undefined) return { kind: 'link', uri: uri.toString(), name, why: 'Not UTF-8 text', size: bytes.length, linkable };
  const size = dirty === undefined ? bytes.length : new TextEncoder().encode(dirty).length;
  if (size > MAX_EMBEDDED_TEXT_BYTES) return { kind: 'link', uri: uri.toString(), name, why: `Larger than ${sizeText(MAX_EMBEDDED_TEXT_BYTES)}`, size, linkable };
  return { kind: 'text', uri: uri.toString(), name, text, bytes: size, linkable };
}

/** Pasted or dropped content has no file the agent could open: it goes inline or not at all. */
function prepareData(name: string, bytes: Uint8Array): PreparedAttachment {
  const claimed = imageTypeByName(name);
  const actual = imageTypeOf(bytes);
  if (claimed || actual) {
    if (claimed && actual !== claimed) throw new Error(`Its name says ${claimed}, but its bytes are ${actual ?? 'not an image of a known type'}.`);
    if (bytes.length > MAX_IMAGE_BYTES) throw new Error(`The image is ${sizeText(bytes.length)}; images over ${sizeText(MAX_IMAGE_BYTES)} are not sent.`);
    return { kind: 'image', name, mimeType: actual!, data: base64(bytes), bytes: bytes.length, linkable: false };
  }
  if (bytes.length > MAX_EMBEDDED_TEXT_BYTES) throw new Error(`It is ${sizeText(bytes.length)}; pasted or dropped text over ${sizeText(MAX_EMBEDDED_TEXT_BYTES)} is not sent.`);
  const text = utf8Text(bytes);
  if (text === undefined) throw new Error('It is neither UTF-8 text nor a PNG, JPEG, GIF or WebP image.');
  return { kind: 'text', uri: `untitled:${encodeURIComponent(name)}`, name, text, bytes: bytes.length, linkable: false };
}

/** The text of `bytes` when they are UTF-8 text (no NUL, no invalid sequence); else undefined. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The text of an open editor of `uri` with unsaved changes, if there is one. */
function unsavedText(uri: vscode.Uri): string | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return doc?.isDirty ? doc.getText() : undefined;
}

function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').filter(Boolean).pop() ?? uri.path;
}

/** Base64 without Node's Buffer (the web worker has none); in chunks, so a 5 MiB image does not overflow the call stack. */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
