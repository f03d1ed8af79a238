/**
 * zod compiles object parsers with `new Function` when eval is allowed, and
 * probes for that when a schema is defined. The webview's CSP forbids eval, so
 * the probe alone is reported as a CSP violation: switch compiling off before
 * any schema exists (webview/main.ts imports this module first).
 */
import { z } from 'zod/mini';

z.config({ jitless: true });
