/**
 * Makes a hostile repository (hostileRepo.ts) for the workspaces stage, where the extension itself takes its
 * checkpoints (test/integration/workspaces/hostileGit.test.ts), and prints where: `{"root", "markers"}` as JSON.
 */
import * as path from 'node:path';
import { hostileRepo } from './hostileRepo';

const repo = hostileRepo();
process.stdout.write(`${JSON.stringify({ root: repo.root, markers: path.join(repo.base, 'markers') })}\n`);
