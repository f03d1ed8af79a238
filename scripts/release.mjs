/**
 * `npm run release -- <version>`: the .vsix of a release, vscode-acp-<version>.vsix. Refuses unless package.json's
 * version is <version> and CHANGELOG.md has its section (`## [<version>] - <date>`); then builds, runs the package
 * stage (vsce with no warning, the manifest, the files and their budget, the version the .vsix says, and the .vsix
 * installed into code-server) and keeps what it packed under the release's name.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changelogHasVersion } from '../test/checks/vsixPackage.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = process.argv[2] ?? '';

function refuse(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}

if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) refuse('give the version: npm run release -- 1.2.3');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
if (pkg.version !== version) {
  refuse(`package.json says ${pkg.version}: set it first (npm version ${version} --no-git-tag-version)`);
}
const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
if (!changelogHasVersion(changelog, version)) {
  refuse(`CHANGELOG.md has no "## [${version}] - <date>" section: move what Unreleased says under it`);
}
const stages = spawnSync(process.execPath, ['test/run.mjs', 'build', 'package'], { cwd: root, stdio: 'inherit' });
if (stages.status !== 0) refuse('the package stage failed: nothing released');
const out = path.join(root, `vscode-acp-${version}.vsix`);
fs.copyFileSync(path.join(root, 'vscode-acp.vsix'), out);
console.log(`release: ${path.relative(root, out)} (${fs.statSync(out).size} bytes)`);
