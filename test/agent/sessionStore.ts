// Sessions that outlive the agent process (`--sessions DIR`): one JSON-lines
// file per session, a header line then one line per recorded update, so a new
// process (the bridge starts one per connection) can load or resume them.
import { appendFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';

interface Header {
  id: string;
  cwd: string;
}

export class SessionStore {
  constructor(private readonly dir: string) {}

  create(header: Header): void {
    writeFileSync(this.file(header.id), `${JSON.stringify(header)}\n`);
  }

  append(id: string, update: acp.SessionUpdate): void {
    appendFileSync(this.file(id), `${JSON.stringify(update)}\n`);
  }

  /** The stored session (with when it last changed), or undefined when this store never saw it. */
  read(id: string): (Header & { history: acp.SessionUpdate[]; updatedAt: string }) | undefined {
    let text: string;
    let updatedAt: string;
    try {
      text = readFileSync(this.file(id), 'utf8');
      updatedAt = statSync(this.file(id)).mtime.toISOString();
    } catch {
      return undefined;
    }
    const [header, ...updates] = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
    return { ...(header as Header), history: updates as acp.SessionUpdate[], updatedAt };
  }

  /** The ids of every stored session. */
  ids(): string[] {
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => decodeURIComponent(f.slice(0, -'.jsonl'.length)));
  }

  delete(id: string): void {
    rmSync(this.file(id), { force: true });
  }

  private file(id: string): string {
    return join(this.dir, `${encodeURIComponent(id)}.jsonl`);
  }
}
