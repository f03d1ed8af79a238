// Sessions that outlive the agent process (`--sessions DIR`): one JSON-lines
// file per session, a header line then one line per recorded update, so a new
// process (the bridge starts one per connection) can load or resume them.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";

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

  /** The stored session, or undefined when this store never saw it. */
  read(id: string): (Header & { history: acp.SessionUpdate[] }) | undefined {
    let text: string;
    try {
      text = readFileSync(this.file(id), "utf8");
    } catch {
      return undefined;
    }
    const [header, ...updates] = text.split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown);
    return { ...(header as Header), history: updates as acp.SessionUpdate[] };
  }

  private file(id: string): string {
    return join(this.dir, `${encodeURIComponent(id)}.jsonl`);
  }
}
