/**
 * What a paste or a drop on the composer attaches: workspace files dragged
 * from the Explorer or an editor tab (URIs), or files and images from
 * outside VS Code (their bytes, base64, to the host, which checks them).
 */
import { MAX_ATTACHMENTS, MAX_IMAGE_BYTES, sizeText } from '../../src/shared/attachments';
import type { WebviewMessage } from '../../src/shared/page/pageMessages';
import { toHost } from '../shared/to-host';

/** Attaches what `data` carries; returns whether it carried anything to attach (the text box then takes nothing). */
export function attachTransfer(
  from: EventTarget,
  data: DataTransfer,
  slots: number,
  say: (text: string) => void,
): boolean {
  const uris = (data.getData('application/vnd.code.uri-list') || data.getData('text/uri-list'))
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (uris.length > 0) {
    toHost(from, { type: 'attachUris', uris: uris.slice(0, 1_000) });
    return true;
  }
  const files = [...data.files];
  if (files.length === 0) return false;
  const taken = files.slice(0, Math.max(0, slots));
  if (taken.length < files.length) {
    say(`At most ${MAX_ATTACHMENTS} attachments go with one prompt: ${files.length - taken.length} not added.`);
  }
  for (const file of taken) void sendFile(file, say, (message) => toHost(from, message));
  return true;
}

async function sendFile(
  file: File,
  say: (text: string) => void,
  post: (message: WebviewMessage) => void,
): Promise<void> {
  // Larger than anything inline: refused here, before its bytes are read.
  if (file.size > MAX_IMAGE_BYTES) {
    return say(
      `${file.name || 'The file'} is ${sizeText(file.size)}; pasted or dropped content over ${sizeText(MAX_IMAGE_BYTES)} is not attached.`,
    );
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  post({
    type: 'attachData',
    name: file.name || (file.type.startsWith('image/') ? `pasted.${file.type.slice(6)}` : 'pasted'),
    base64: base64(bytes),
  });
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
