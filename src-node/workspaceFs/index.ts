/**
 * Agent file access confined to a workspace folder (plain Node, no
 * `vscode`): the ACP `fs/read_text_file` and `fs/write_text_file` requests,
 * with every path checked so that an untrusted agent cannot read or write
 * outside the folder, through '..', symlinks or races. Unsaved editor
 * buffers are the caller's business.
 */
export { openWorkspaceRoot, type WorkspaceRoot } from './workspaceRoot';
export { readFileBytes, readTextFile, type ReadOptions } from './readTextFile';
export { writeTextFile, type WriteOptions } from './writeTextFile';
export { descriptorWalkSupported } from './walk/descriptorWalk';
export { WorkspaceFsError, isWorkspaceFsError, type WorkspaceFsErrorCode } from './errors';
export { MAX_FILE_BYTES } from './limits';
export type { StepHook, WalkStep } from './walk/walkStep';
