/**
 * `fs/read_text_file` and `fs/write_text_file` as the user sees the files:
 * reads of a file with unsaved changes return the editor's text; writes to
 * such a file are refused until the user saves or reverts. Disk access
 * itself (inside the folders the agent was given, no escapes) is the
 * platform's, and it is asked first: an editor's unsaved text is only ever
 * served for a path the disk layer accepts.
 */
import * as acp from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import type { WindowPort, WorkspaceFileAccess } from '../platform';
import { sliceLines } from '../shared/text/lines';

export class FileRequests {
  constructor(
    private readonly files: WorkspaceFileAccess,
    private readonly editors: Pick<WindowPort, 'unsavedText'>,
    private readonly log: vscode.LogOutputChannel,
    /** The folders the agent was given (connection/workRoots.ts): none until it is initialized. */
    private readonly roots: () => readonly string[],
  ) {}

  /**
   * A file that does not exist yet, in a folder that does, reads as empty,
   * as Zed (the reference client) answers: Gemini CLI reads a file before it
   * creates it, and takes any error answer, whatever its code or message,
   * as a failure (it never creates the file then).
   */
  async read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const content = await this.disk(() =>
      this.files.read(params.path, { line: params.line, limit: params.limit }, this.roots()),
    );
    // Checked by the disk layer above: a dirty editor outside the agent's folders is never read here.
    const unsaved = this.editors.unsavedText(params.path);
    if (unsaved !== undefined) return { content: sliceLines(unsaved, params.line, params.limit) };
    if (content === undefined) {
      this.log.info(`The agent read ${params.path}, which does not exist yet: answered as an empty file.`);
    }
    return { content: content ?? '' };
  }

  async write(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    if (this.editors.unsavedText(params.path) !== undefined) {
      // Whether a file outside the agent's folders is open with unsaved changes is not the agent's to learn.
      await this.disk(() => this.files.read(params.path, { limit: 1 }, this.roots()));
      throw new acp.RequestError(
        -32603,
        `${params.path} has unsaved changes in the editor; the user must save or revert it before it can be written.`,
      );
    }
    await this.disk(() => this.files.write(params.path, params.content, this.roots()));
    this.log.info(`The agent wrote ${params.path} (${params.content.length} characters).`);
    return {};
  }

  /** Errors from the disk layer are meant for the agent and the user: pass their message on. */
  private async disk<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn(`Refused a file request from the agent: ${message}`);
      throw new acp.RequestError(-32603, message);
    }
  }
}
