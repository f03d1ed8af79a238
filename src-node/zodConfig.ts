/**
 * zod decides whether it may compile its object parsers with eval when each
 * schema is defined (module load), and that check reads `navigator`, which VS
 * Code's Node extension host reports as an error (PendingMigrationError) at
 * every start. Parsing without compiling avoids the check: this module is
 * imported first by the Node entry, before any schema exists (the webview's
 * zod-config.ts does the same for its CSP).
 */
import { z } from 'zod';

z.config({ jitless: true });
