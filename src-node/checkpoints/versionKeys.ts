/**
 * The key of a file version's bytes (shared/changes.ts VERSION_KEY): the SHA-256 of a copy in the BlobStore, or
 * `git:<blob id>` for bytes Git keeps (a tracked file as its index has it: no copy, docs/design/checkpoints-git.md).
 * Keys travel as FileVersion.hash everywhere (turns, saved chats, the diff views' URIs); only the checkpoints tell
 * them apart.
 */
import { hashOf } from './blobStore';
import { blobId, type ObjectFormat } from './gitView';

const GIT_PREFIX = 'git:';

export function gitKey(id: string): string {
  return GIT_PREFIX + id;
}

/** The blob id and object format of a Git key; undefined for a copy's key. */
export function gitIdOf(key: string): { id: string; format: ObjectFormat } | undefined {
  if (!key.startsWith(GIT_PREFIX)) return undefined;
  const id = key.slice(GIT_PREFIX.length);
  if (!/^[0-9a-f]+$/.test(id) || (id.length !== 40 && id.length !== 64)) return undefined;
  return { id, format: id.length === 40 ? 'sha1' : 'sha256' };
}

/** Whether `bytes` are the version `key` names. */
export function keyMatches(bytes: Uint8Array, key: string): boolean {
  const git = gitIdOf(key);
  return git ? blobId(bytes, git.format) === git.id : hashOf(bytes) === key;
}
