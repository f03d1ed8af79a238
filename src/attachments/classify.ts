/**
 * What an attachment's bytes are, decided without VS Code (so that it can be
 * measured and tested alone): text (UTF-8, no NUL), an image (PNG, JPEG, GIF
 * or WebP by its bytes, matching its name), or, for a picked file that is
 * neither or too large, a link. Throws an Error whose message goes on the chip.
 */
import {
  imageTypeByName,
  imageTypeOf,
  MAX_EMBEDDED_TEXT_BYTES,
  MAX_IMAGE_BYTES,
  sizeText,
} from '../shared/attachments';
import type { PreparedAttachment } from './promptBlocks';

/** A workspace file as read: its bytes (or that it was over the cap read), the editor's unsaved text if any. */
export interface ReadFile {
  readonly uri: string;
  readonly name: string;
  readonly bytes: Uint8Array | { readonly tooLarge: true; readonly size?: number };
  readonly unsaved?: string;
  readonly linkable: boolean;
}

/** How many bytes to read of a file named `name`: as much as could be sent inline. */
export function readCap(name: string): number {
  return imageTypeByName(name) ? MAX_IMAGE_BYTES : MAX_EMBEDDED_TEXT_BYTES;
}

export function classifyFile(file: ReadFile): PreparedAttachment {
  const { uri, name, linkable } = file;
  const claimed = imageTypeByName(name);
  if (!(file.bytes instanceof Uint8Array)) {
    if (claimed || file.unsaved === undefined) {
      return {
        kind: 'link',
        uri,
        name,
        why: `Larger than ${sizeText(readCap(name))}`,
        linkable,
        ...(file.bytes.size !== undefined ? { size: file.bytes.size } : {}),
        ...(claimed ? { mimeType: claimed } : {}),
      };
    }
    return textOrLink(uri, name, file.unsaved, linkable);
  }
  const bytes = file.bytes;
  const actual = imageTypeOf(bytes);
  if (claimed || actual) return image(name, bytes, claimed, actual, uri, linkable);
  if (file.unsaved !== undefined) return textOrLink(uri, name, file.unsaved, linkable);
  const text = utf8Text(bytes);
  if (text === undefined) return { kind: 'link', uri, name, why: 'Not UTF-8 text', size: bytes.length, linkable };
  return { kind: 'text', uri, name, text, bytes: bytes.length, linkable };
}

/** Pasted or dropped content has no file the agent could open: it goes inline or not at all. */
export function classifyData(name: string, bytes: Uint8Array): PreparedAttachment {
  const claimed = imageTypeByName(name);
  const actual = imageTypeOf(bytes);
  if (claimed || actual) {
    if (bytes.length > MAX_IMAGE_BYTES) {
      throw new Error(`The image is ${sizeText(bytes.length)}; images over ${sizeText(MAX_IMAGE_BYTES)} are not sent.`);
    }
    return image(name, bytes, claimed, actual, undefined, false);
  }
  if (bytes.length > MAX_EMBEDDED_TEXT_BYTES) {
    throw new Error(
      `It is ${sizeText(bytes.length)}; pasted or dropped text over ${sizeText(MAX_EMBEDDED_TEXT_BYTES)} is not sent.`,
    );
  }
  const text = utf8Text(bytes);
  if (text === undefined) throw new Error('It is neither UTF-8 text nor a PNG, JPEG, GIF or WebP image.');
  return {
    kind: 'text',
    uri: `untitled:${encodeURIComponent(name)}`,
    name,
    text,
    bytes: bytes.length,
    linkable: false,
  };
}

function image(
  name: string,
  bytes: Uint8Array,
  claimed: string | undefined,
  actual: ReturnType<typeof imageTypeOf>,
  uri: string | undefined,
  linkable: boolean,
): PreparedAttachment {
  if (!actual || (claimed && actual !== claimed)) {
    throw new Error(`Its name says ${claimed}, but its bytes are ${actual ?? 'not an image of a known type'}.`);
  }
  return {
    kind: 'image',
    ...(uri ? { uri } : {}),
    name,
    mimeType: actual,
    data: base64(bytes),
    bytes: bytes.length,
    linkable,
  };
}

/** An editor's unsaved text: embedded if small enough, else a link to the file. */
function textOrLink(uri: string, name: string, text: string, linkable: boolean): PreparedAttachment {
  const size = new TextEncoder().encode(text).length;
  if (size > MAX_EMBEDDED_TEXT_BYTES) {
    return { kind: 'link', uri, name, why: `Larger than ${sizeText(MAX_EMBEDDED_TEXT_BYTES)}`, size, linkable };
  }
  return { kind: 'text', uri, name, text, bytes: size, linkable };
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

/** Base64 without Node's Buffer (the web worker has none); in chunks, so a 5 MiB image does not overflow the call stack. */
export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
