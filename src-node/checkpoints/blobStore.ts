/**
 * Copies of file contents, kept by their SHA-256 in the extension's own
 * storage for this workspace (never in the workspace, never in its `.git`).
 * The same bytes are kept once, however many files, turns or chats have
 * them, so a turn costs only what it changed. Bounded: a copy that would
 * take the store past its size is not made, and the caller says so.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const HASH = /^[0-9a-f]{64}$/;

export function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes of copies kept in memory until written (past this, a copy is written as it is put). */
const MAX_UNWRITTEN = 16 * 1024 * 1024;
/** Copies are written this long after the last one was put. */
const WRITE_AFTER_MS = 25;

export class BlobStore {
  private sizes: Map<string, number> | undefined;
  private total = 0;
  /** Copies put and not written yet, read from here meanwhile. */
  private readonly unwritten = new Map<string, Uint8Array>();
  private unwrittenBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  /** `dir`: a folder of the extension's storage (created when needed); `limit`: the most all copies may take (bytes). */
  /** `maxBytes` is read at each copy (a setting may change it). */
  constructor(
    readonly dir: string,
    private readonly limit: number | (() => number),
  ) {}

  get maxBytes(): number {
    return typeof this.limit === 'number' ? this.limit : this.limit();
  }

  /** How many bytes the copies take now. */
  get bytes(): number {
    return this.total;
  }

  /**
   * Keeps `bytes`; its hash, or undefined when the store has no room for it. The copy is written to disk a moment
   * later, once the caller (a pass a prompt waits for) is done putting (up to MAX_UNWRITTEN bytes; past that, now);
   * until then it is read from memory. A window closed meanwhile loses it: a restore then says it is gone.
   */
  put(bytes: Uint8Array, hash = hashOf(bytes)): string | undefined {
    const sizes = this.load();
    if (sizes.has(hash)) return hash;
    if (this.total + bytes.length > this.maxBytes) return undefined;
    if (this.unwrittenBytes + bytes.length > MAX_UNWRITTEN) {
      writeCopy(this.fileOf(hash), bytes);
    } else {
      this.unwritten.set(hash, bytes);
      this.unwrittenBytes += bytes.length;
      this.writeSoon();
    }
    sizes.set(hash, bytes.length);
    this.total += bytes.length;
    return hash;
  }

  /** Writes every copy put so far now; resolves once each is on disk (or known lost). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.writing = this.writing.then(() => this.writeAll());
    await this.writing;
  }

  has(hash: string): boolean {
    return this.load().has(hash);
  }

  /** The bytes kept under `hash`; throws when there is no such copy or it no longer has that hash. */
  get(hash: string): Buffer {
    if (!HASH.test(hash) || !this.load().has(hash)) throw new Error('The copy from before is not kept any more.');
    const unwritten = this.unwritten.get(hash);
    if (unwritten) return Buffer.from(unwritten);
    const bytes = fs.readFileSync(this.fileOf(hash));
    if (hashOf(bytes) !== hash) throw new Error('The copy from before is damaged (its bytes no longer match).');
    return bytes;
  }

  /** Removes every copy not in `keep`; returns how many bytes that freed. */
  sweep(keep: ReadonlySet<string>): number {
    const sizes = this.load();
    let freed = 0;
    for (const [hash, size] of sizes) {
      if (keep.has(hash)) continue;
      this.forgetUnwritten(hash);
      fs.rmSync(this.fileOf(hash), { force: true });
      sizes.delete(hash);
      this.total -= size;
      freed += size;
    }
    return freed;
  }

  /** Writes the unwritten copies once no copy was put for WRITE_AFTER_MS (a pass is done). */
  private writeSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), WRITE_AFTER_MS);
  }

  private async writeAll(): Promise<void> {
    for (const [hash, bytes] of [...this.unwritten]) {
      if (this.unwritten.get(hash) !== bytes) continue; // swept meanwhile
      try {
        await writeCopyAsync(this.fileOf(hash), bytes);
      } catch {
        // Not kept after all (the disk is full, the storage gone): a restore says the copy is gone.
        const size = this.sizes?.get(hash);
        if (size !== undefined) {
          this.sizes!.delete(hash);
          this.total -= size;
        }
      }
      this.forgetUnwritten(hash);
    }
  }

  private forgetUnwritten(hash: string): void {
    const bytes = this.unwritten.get(hash);
    if (!bytes) return;
    this.unwritten.delete(hash);
    this.unwrittenBytes -= bytes.length;
  }

  private fileOf(hash: string): string {
    return path.join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  /** What is on disk, read once: copies from an earlier window are reused. Leftover partial copies are removed. */
  private load(): Map<string, number> {
    if (this.sizes) return this.sizes;
    const sizes = new Map<string, number>();
    for (const prefix of safeList(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      for (const rest of safeList(path.join(this.dir, prefix))) {
        const file = path.join(this.dir, prefix, rest);
        if (rest.endsWith('.partial')) {
          fs.rmSync(file, { force: true });
          continue;
        }
        const hash = prefix + rest;
        if (!HASH.test(hash)) continue;
        try {
          const size = fs.lstatSync(file).size;
          sizes.set(hash, size);
          this.total += size;
        } catch {
          // Gone meanwhile.
        }
      }
    }
    this.sizes = sizes;
    return sizes;
  }
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** A copy's bytes under `file`: written whole under another name first, so a crash leaves no half copy under it. */
function writeCopy(file: string, bytes: Uint8Array): void {
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  const write = () => fs.writeFileSync(partial, bytes, { flag: 'wx', mode: 0o600 });
  try {
    write();
  } catch (e) {
    // Its folder (one of 256) not made yet, or removed by someone else: made once, not at every copy.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    write();
  }
  fs.renameSync(partial, file);
}

/** writeCopy, without holding up the extension host. */
async function writeCopyAsync(file: string, bytes: Uint8Array): Promise<void> {
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  const write = () => fs.promises.writeFile(partial, bytes, { flag: 'wx', mode: 0o600 });
  try {
    await write();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await write();
  }
  await fs.promises.rename(partial, file);
}
