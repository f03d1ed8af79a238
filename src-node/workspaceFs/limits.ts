/**
 * Size limits. The file cap keeps one agent request from pinning hundreds of
 * megabytes in the extension host (and the JSON-RPC line that carries it);
 * the name caps are Linux's NAME_MAX and PATH_MAX (which counts the NUL), so
 * an over-long path is refused up front with a clear message rather than as
 * ENAMETOOLONG half-way through a walk.
 */

/** Largest file read, and largest content written: 16 MiB. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Longest path component, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;

/** Longest whole path, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 4095;
