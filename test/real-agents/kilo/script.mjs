/**
 * What the fake model does in Kilo Code's real-agent test: OpenCode's script, unchanged. Kilo's
 * CLI 7.7 is an OpenCode fork with OpenCode's tools (`write {filePath, content}`, `edit {filePath,
 * oldString, newString}`, `read {filePath}`, `bash {command}`, besides its own), OpenCode's
 * wording of a rejected permission, and the same Chat Completions requests (a title request
 * without tools on a session's first turn), so ../opencode/script.mjs serves both; it is named
 * here so that each agent's folder says what its model does.
 *
 * Seen with Kilo (sdkClient.mjs): it asks permission for a write or an edit, with the diff,
 * *before* it announces the call (`tool_call`), then writes through `fs/write_text_file` and also
 * itself; a shell command is announced first, then asked.
 */
export { scenario, scriptRules } from '../opencode/script.mjs';
