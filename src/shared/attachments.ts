/**
 * Attachments: what the user adds to a prompt besides its text (a file, an
 * image, the editor selection), as the composer shows them (chips), and the
 * hard limits on what is sent inline.
 */
import { z } from 'zod/mini';

/** Most attachments in one prompt. */
export const MAX_ATTACHMENTS = 10;
/** Largest text file embedded in a prompt (UTF-8 bytes); a picked file over it goes as a link. */
export const MAX_EMBEDDED_TEXT_BYTES = 1024 * 1024;
/** Largest image sent inline (bytes). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Most bytes sent inline (embedded text and images) in one prompt. */
export const MAX_INLINE_BYTES = 10 * 1024 * 1024;

export const attachmentIconSchema = z.enum([
  'file',
  'image',
  'selection',
  'folder',
  'problems',
  'comment',
  'changes',
  'terminal',
]);
export type AttachmentIcon = z.infer<typeof attachmentIconSchema>;

/** An attachment in the composer, before the prompt is sent. */
export const attachmentChipSchema = z.object({
  id: z.string().check(z.maxLength(64)),
  /** Short: a file name, or `name:L3-L9`. */
  label: z.string().check(z.maxLength(300)),
  /** The workspace-relative path (a tooltip), when it has one. */
  detail: z.optional(z.string().check(z.maxLength(2_000))),
  icon: attachmentIconSchema,
  /** `preparing`: being read; Send waits. `error`: it cannot be sent, `message` says why. */
  state: z.enum(['preparing', 'ready', 'error']),
  /** Why it cannot be sent, or how it will be (say, "sent as a link: larger than 1 MiB"). */
  message: z.optional(z.string().check(z.maxLength(1_000))),
});
export type AttachmentChip = z.infer<typeof attachmentChipSchema>;

/** An attachment as a sent (or replayed) prompt shows it: display only. */
export const sentAttachmentSchema = z.object({
  label: z.string().check(z.maxLength(300)),
  icon: attachmentIconSchema,
});
export type SentAttachment = z.infer<typeof sentAttachmentSchema>;

/** The image formats sent as `image` blocks. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** The image format `bytes` really are (by their signature), if one of IMAGE_TYPES. */
export function imageTypeOf(bytes: Uint8Array): ImageType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return 'image/gif';
  }
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  ) {
    return 'image/webp';
  }
  return undefined;
}

/** The image type a file name claims, if one of IMAGE_TYPES. */
export function imageTypeByName(name: string): ImageType | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  switch (ext) {
    case 'png':
      return 'image/png';
    case 'jpg':
    case 'jpeg':
      return 'image/jpeg';
    case 'gif':
      return 'image/gif';
    case 'webp':
      return 'image/webp';
    default:
      return undefined;
  }
}

/** `n` bytes for a person: "1.5 MiB", "12 KiB", "300 bytes". */
export function sizeText(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}
