/**
 * Issue 13's figure: the extension host's time to prepare a prompt with ten
 * 1 MiB text files, in Node, as the Node host does it: each file opened and
 * read through the descriptor walk (src-node/workspaceFs), classified (UTF-8
 * checked), then the prompt built under the limits and serialised as the
 * SDK sends it. VS Code's own calls (trust, open editors) are not in it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { classifyFile } from '../../src/attachments/classify';
import { buildPrompt, type PromptAttachment } from '../../src/attachments/promptBlocks';
import { MAX_EMBEDDED_TEXT_BYTES } from '../../src/shared/attachments';
import { openWorkspaceRoot, readFileBytes } from '../../src-node/workspaceFs';

export async function attachmentFigures(runs = 5): Promise<{ tenFilesMs: number; promptMiB: number }> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-attach-')));
  try {
    const line = 'A line of source code, the kind that an agent is asked to read;\n';
    const text = line.repeat(Math.floor(MAX_EMBEDDED_TEXT_BYTES / line.length));
    const files = Array.from({ length: 10 }, (_, i) => {
      const file = path.join(dir, `file-${i}.ts`);
      fs.writeFileSync(file, text);
      return file;
    });
    const times: number[] = [];
    let promptBytes = 0;
    for (let r = 0; r < runs; r++) {
      const started = performance.now();
      const root = await openWorkspaceRoot(dir);
      const attachments: PromptAttachment[] = await Promise.all(
        files.map(async (file, i) => ({
          id: `a${i}`,
          shown: { label: path.basename(file), icon: 'file' as const },
          prepared: classifyFile({
            uri: `file://${file}`,
            name: path.basename(file),
            bytes: await readFileBytes(root, file, MAX_EMBEDDED_TEXT_BYTES),
            linkable: true,
          }),
        })),
      );
      const built = buildPrompt('Review these files', attachments, { embeddedContext: true });
      if (!built.ok) throw new Error(`the bench prompt was refused: ${[...built.errors.values()].join('; ')}`);
      promptBytes = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'session/prompt',
        params: { sessionId: 's', prompt: built.blocks },
      }).length;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return {
      tenFilesMs: Math.round(times[Math.floor(times.length / 2)] * 10) / 10,
      promptMiB: Math.round((promptBytes / 1024 / 1024) * 10) / 10,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
