/**
 * The package as the Marketplace and Open VSX take it: `vsce package` with no warning, a manifest a gallery can show
 * (an icon that is a 128x128 PNG, a gallery banner, repository, bugs and homepage addresses, categories from the
 * Marketplace's list), a version the CHANGELOG has a section for and the .vsix says too, and a .vsix that holds only
 * what runs, within a budget. Writes vscode-acp.vsix.
 *
 *   node test/checks/vsixPackage.mjs
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { REPO_ROOT } from '../harness/paths.mjs';

/**
 * What the .vsix may hold (its names as vsce writes them): its manifest, the extension's package.json and texts
 * (vsce names them readme.md, changelog.md, LICENSE.txt), the icon and the walkthrough's pictures and texts, and the
 * bundles that run.
 */
const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/(package\.json|readme\.md|changelog\.md|LICENSE\.txt)$/,
  /^extension\/images\/(icon|chat-light|chat-dark)\.png$/,
  /^extension\/walkthrough\/[\w-]+\.md$/,
  /^extension\/dist\/(node|web|bridge)\/[\w-]+\.js$/,
  /^extension\/dist\/webview\/(webview\.js|webview\.js\.LICENSE\.txt|codicon\.ttf)$/,
];
/** The files' bytes before compression, at most (2.7 MB today: the Node entry 1 MB, the bridge 0.5 MB). */
const BUDGET_BYTES = 3 * 1024 * 1024;
/** The .vsix itself, at most (1,000 KB today: 750 KB of code, 250 KB of the walkthrough's two pictures). */
const VSIX_BUDGET_BYTES = 1280 * 1024;
/** The Marketplace's categories (its publishing documentation). */
const CATEGORIES = new Set([
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Other',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
]);

function vsce(args) {
  const r = spawnSync('npx', ['--no-install', 'vsce', ...args, '--no-dependencies'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const output = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`vsce ${args[0]} failed (${r.status}):\n${output}`);
  return output;
}

/** A PNG's width and height, from its IHDR chunk; undefined when the bytes are not a PNG. */
export function pngSize(bytes) {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The files of the zip `zip` (a .vsix), from its central directory: name, bytes before compression, and how to read them. */
export function zipEntries(zip) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) return [];
  const entries = [];
  let at = zip.readUInt32LE(end + 16);
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    const nameLength = zip.readUInt16LE(at + 28);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      size: zip.readUInt32LE(at + 24),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      local: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The bytes of the file `name` in the zip `zip` (a .vsix); undefined when it has none. */
export function zipEntry(zip, name) {
  const entry = zipEntries(zip).find((e) => e.name === name);
  if (!entry) return undefined;
  const data = entry.local + 30 + zip.readUInt16LE(entry.local + 26) + zip.readUInt16LE(entry.local + 28);
  const bytes = zip.subarray(data, data + entry.compressedSize);
  return entry.method === 8 ? inflateRawSync(bytes) : bytes;
}

/** Whether `changelog` has a released section for `version`: `## [<version>] - <yyyy-mm-dd>`. */
export function changelogHasVersion(changelog, version) {
  return new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm').test(changelog);
}

/** What is wrong with the version: the CHANGELOG has a section for package.json's, and the .vsix says the same. */
export function versionProblems(pkg, changelog, vsix) {
  const problems = [];
  if (!changelogHasVersion(changelog, pkg.version)) {
    problems.push(`CHANGELOG.md has no "## [${pkg.version}] - <date>" section`);
  }
  const packed = vsix && zipEntry(vsix, 'extension/package.json');
  const version = packed ? JSON.parse(packed.toString('utf8')).version : undefined;
  if (version !== pkg.version) problems.push(`the .vsix says version ${version}, package.json ${pkg.version}`);
  return problems;
}

/** What is wrong with the manifest for a gallery. */
export function manifestProblems(pkg, root = REPO_ROOT) {
  const problems = [];
  const icon = pkg.icon && path.join(root, pkg.icon);
  const size = icon && fs.existsSync(icon) ? pngSize(fs.readFileSync(icon)) : undefined;
  if (!size || size.width !== 128 || size.height !== 128) problems.push(`icon: ${pkg.icon} is not a 128x128 PNG`);
  if (
    !/^#[0-9a-f]{6}$/i.test(pkg.galleryBanner?.color ?? '') ||
    !['dark', 'light'].includes(pkg.galleryBanner?.theme)
  ) {
    problems.push('galleryBanner: a colour and a theme (dark or light)');
  }
  for (const [field, url] of [
    ['repository', pkg.repository?.url],
    ['bugs', pkg.bugs?.url],
    ['homepage', pkg.homepage],
  ]) {
    if (!/^https:\/\/[^/]+\.[a-z]+\//.test(url ?? '') || /example\.invalid/.test(url)) {
      problems.push(`${field}: not an https address`);
    }
  }
  for (const category of pkg.categories ?? []) {
    if (!CATEGORIES.has(category)) problems.push(`categories: "${category}" is not one of the Marketplace's`);
  }
  if (!(pkg.categories?.length > 0)) problems.push('categories: none');
  if (!(pkg.keywords?.length > 0) || pkg.keywords.length > 30) problems.push('keywords: 1 to 30');
  return problems;
}

/** Packs the .vsix and checks it; resolves to its files and sizes, or throws with every problem found. */
export function checkPackage() {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const problems = manifestProblems(pkg);
  const packed = vsce(['package', '--out', 'vscode-acp.vsix']);
  for (const line of packed.split('\n')) if (/WARNING/i.test(line)) problems.push(`vsce: ${line.trim()}`);
  const vsix = fs.readFileSync(path.join(REPO_ROOT, 'vscode-acp.vsix'));
  const files = zipEntries(vsix);
  for (const { name } of files) if (!ALLOWED.some((re) => re.test(name))) problems.push(`the .vsix holds ${name}`);
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (bytes > BUDGET_BYTES) problems.push(`the .vsix's files are ${bytes} bytes (budget ${BUDGET_BYTES})`);
  problems.push(...versionProblems(pkg, fs.readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8'), vsix));
  const vsixBytes = vsix.length;
  if (vsixBytes > VSIX_BUDGET_BYTES) {
    problems.push(`vscode-acp.vsix is ${vsixBytes} bytes (budget ${VSIX_BUDGET_BYTES})`);
  }
  if (problems.length > 0) throw new Error(`the package:\n  ${problems.join('\n  ')}`);
  return { files, bytes, vsixBytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, bytes, vsixBytes } = checkPackage();
  console.log(`${files.length} files, ${bytes} bytes; vscode-acp.vsix ${vsixBytes} bytes`);
}
