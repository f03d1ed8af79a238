/**
 * A prompt's content blocks: its text, then each attachment in order, in the
 * form the agent says it accepts (`promptCapabilities`), within the limits.
 * Pure: what was read (prepareAttachment.ts) in, blocks or reasons out.
 *
 * | attachment                 | embeddedContext / image | else, linkable | else         |
 * | -------------------------- | ----------------------- | -------------- | ------------ |
 * | text file (<= 1 MiB)       | `resource` (text)       | `resource_link`| refused      |
 * | image file (<= 5 MiB)      | `image`                 | `resource_link`| refused      |
 * | file too large, not text   | -                       | `resource_link`| refused      |
 * | pasted or dropped content  | `resource` / `image`    | -              | refused      |
 * | selection, problems, folder| `resource`              | `text`, fenced | `text`       |
 *
 * "Linkable": the agent can open the file itself (it runs on this machine;
 * never on the web host). Past MAX_INLINE_BYTES in one prompt, what can go
 * as a link does; the rest is refused.
 */
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import {
  MAX_ATTACHMENTS,
  MAX_INLINE_BYTES,
  sizeText,
  type ImageType,
  type SentAttachment,
} from '../shared/attachments';
import { NO_QUIRKS, type AgentQuirks } from '../agents/agentQuirks';
import { fenceFor } from '../shared/text/codeFence';

/** An attachment as read: what it is, not yet how it is sent. */
export type PreparedAttachment =
  | {
      readonly kind: 'text';
      readonly uri: string;
      readonly name: string;
      readonly text: string;
      readonly bytes: number;
      readonly linkable: boolean;
    }
  | {
      readonly kind: 'image';
      readonly uri?: string;
      readonly name: string;
      readonly mimeType: ImageType;
      readonly data: string;
      readonly bytes: number;
      readonly linkable: boolean;
    }
  /** A picked file that can only go as a link (too large, or not text); `why` says so. */
  | {
      readonly kind: 'link';
      readonly uri: string;
      readonly name: string;
      readonly size?: number;
      readonly mimeType?: string;
      readonly why: string;
      readonly linkable: boolean;
    }
  /** Text the extension put together (a selection, a file's problems, a folder's files): `uri` names it when embedded. */
  | {
      readonly kind: 'snippet';
      readonly uri: string;
      readonly label: string;
      readonly text: string;
      /** Plain text unless said. */
      readonly mimeType?: string;
    };

export interface PromptAttachment {
  readonly id: string;
  readonly prepared: PreparedAttachment;
  readonly shown: SentAttachment;
}

export type BuiltPrompt =
  | { readonly ok: true; readonly blocks: ContentBlock[]; readonly sent: SentAttachment[] }
  /** Nothing is sent: the reason for each attachment that cannot go (by id). */
  | { readonly ok: false; readonly errors: ReadonlyMap<string, string> };

/** What a known agent gets wrong that the prompt works around (see agents/agentQuirks.ts). */
export type PromptQuirks = Pick<AgentQuirks, 'resourcesDropImages'>;

export function buildPrompt(
  text: string,
  attachments: readonly PromptAttachment[],
  capabilities: PromptCapabilities | undefined,
  quirks: PromptQuirks = NO_QUIRKS,
): BuiltPrompt {
  const images = capabilities?.image === true;
  const hasImage = images && attachments.some((a) => a.prepared.kind === 'image');
  const embedded = capabilities?.embeddedContext === true && !(quirks.resourcesDropImages && hasImage);
  // Embedded text that cannot go as a resource (the quirk above) goes as fenced text.
  const asText = capabilities?.embeddedContext === true && !embedded;
  const blocks: ContentBlock[] = text.trim() === '' ? [] : [{ type: 'text', text }];
  const errors = new Map<string, string>();
  let inline = 0;
  /** Whether `bytes` more fit in the prompt's inline budget (and counts them if so). */
  const fits = (bytes: number) => {
    if (inline + bytes > MAX_INLINE_BYTES) return false;
    inline += bytes;
    return true;
  };
  const link = (a: { uri: string; name: string; size?: number; mimeType?: string }): ContentBlock => ({
    type: 'resource_link',
    uri: a.uri,
    name: a.name,
    ...(a.mimeType ? { mimeType: a.mimeType } : {}),
    ...(a.size !== undefined ? { size: a.size } : {}),
  });

  attachments.forEach(({ id, prepared: p }, index) => {
    if (index >= MAX_ATTACHMENTS) {
      return void errors.set(id, `At most ${MAX_ATTACHMENTS} attachments go with one prompt.`);
    }
    switch (p.kind) {
      case 'text':
        if (embedded && fits(p.bytes)) {
          return void blocks.push({ type: 'resource', resource: { uri: p.uri, mimeType: 'text/plain', text: p.text } });
        }
        if (asText && fits(p.bytes)) return void blocks.push({ type: 'text', text: `${p.uri}\n${fenced(p.text)}` });
        if (p.linkable) return void blocks.push(link({ uri: p.uri, name: p.name, size: p.bytes }));
        return void errors.set(
          id,
          embedded ? overBudget() : 'The agent does not accept embedded files, and it cannot open this one itself.',
        );
      case 'image':
        if (images && fits(p.bytes)) {
          return void blocks.push({
            type: 'image',
            mimeType: p.mimeType,
            data: p.data,
            ...(p.uri ? { uri: p.uri } : {}),
          });
        }
        if (p.linkable && p.uri) {
          return void blocks.push(link({ uri: p.uri, name: p.name, size: p.bytes, mimeType: p.mimeType }));
        }
        return void errors.set(id, images ? overBudget() : 'The agent does not accept images.');
      case 'link':
        if (p.linkable) return void blocks.push(link(p));
        return void errors.set(id, `${p.why}, and the agent cannot open this file itself.`);
      case 'snippet': {
        const bytes = new TextEncoder().encode(p.text).length;
        if (!fits(bytes)) return void errors.set(id, overBudget());
        if (embedded) {
          return void blocks.push({
            type: 'resource',
            resource: { uri: p.uri, mimeType: p.mimeType ?? 'text/plain', text: p.text },
          });
        }
        return void blocks.push({ type: 'text', text: `${p.label}\n${fenced(p.text)}` });
      }
    }
  });
  if (errors.size > 0) return { ok: false, errors };
  return { ok: true, blocks, sent: attachments.map((a) => a.shown) };
}

function overBudget(): string {
  return `The attachments of one prompt are sent inline up to ${sizeText(MAX_INLINE_BYTES)} in all; this one would go past that.`;
}

/** `text` in a Markdown code fence longer than any run of backticks in it. */
function fenced(text: string): string {
  const fence = fenceFor(text);
  return `${fence}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}
