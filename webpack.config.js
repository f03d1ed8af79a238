// @ts-check
/**
 * Bundles: the Node extension (target node), the web-worker extension (target
 * webworker, no Node fallbacks: a Node builtin anywhere in it fails the build),
 * the chat webview (target web), the bridge program, and the test bundles.
 * TypeScript is transpiled by esbuild; `npm run typecheck` checks types.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const webpack = require('webpack');

const dist = (...p) => path.resolve(__dirname, 'dist', ...p);

/** @returns {import('webpack').Configuration} */
function base(target, mode) {
  return {
    target,
    mode,
    devtool: mode === 'production' ? false : 'source-map',
    resolve: { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          options: { target: 'es2022', tsconfig: path.resolve(__dirname, 'tsconfig.base.json') },
        },
      ],
    },
    performance: { hints: false },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'error' },
  };
}

/** The `vscode` module is provided by the extension host. */
const vscodeExternal = { vscode: 'commonjs vscode' };

/** Every test file under a folder, as one bundle's entry list. */
function testFiles(dir) {
  return fs
    .readdirSync(path.resolve(__dirname, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => './' + path.join(dir, f));
}

/**
 * Fails the build when a web bundle would contain a Node builtin, even one a
 * later webpack version would polyfill. Webpack 5 already errors on them;
 * this also names the rule.
 */
class NoNodeBuiltinsPlugin {
  apply(compiler) {
    const builtins = new Set(require('node:module').builtinModules);
    compiler.hooks.normalModuleFactory.tap('NoNodeBuiltins', (factory) => {
      factory.hooks.beforeResolve.tap('NoNodeBuiltins', (data) => {
        const request = data.request.replace(/^node:/, '');
        if (builtins.has(request) || builtins.has(request.split('/')[0])) {
          throw new Error(
            `Node builtin "${data.request}" imported by ${data.contextInfo.issuer}: the web bundles must not use Node.`,
          );
        }
      });
    });
  }
}

/**
 * Marks a finished build of one bundle (`dist/.stamps/NAME`), so that
 * `node test/run.mjs STAGE` can tell a stale `dist/` from a fresh one: webpack
 * leaves a bundle whose content did not change untouched, so the bundles'
 * own dates do not say when they were last built.
 */
class BuildStampPlugin {
  constructor(name) {
    this.name = name;
  }
  apply(compiler) {
    compiler.hooks.done.tap('BuildStamp', (stats) => {
      if (stats.hasErrors()) return;
      fs.mkdirSync(dist('.stamps'), { recursive: true });
      fs.writeFileSync(dist('.stamps', this.name), `${new Date().toISOString()}\n`);
    });
  }
}

/** Copies files next to a bundle (the codicon font for the webview). */
class CopyFilesPlugin {
  constructor(files) {
    this.files = files;
  }
  apply(compiler) {
    compiler.hooks.afterEmit.tap('CopyFiles', () => {
      for (const [from, to] of this.files) {
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(from, to);
      }
    });
  }
}

module.exports = (env, argv) => {
  const mode = argv.mode === 'development' ? 'development' : 'production';
  const node = base('node', mode);
  const web = base('webworker', mode);
  const configs = [
    {
      ...node,
      name: 'node',
      // keeper.js runs as a process of its own (src-node/keeper/main.ts); lineWorker.js as a thread that parses an
      // agent's long lines (src-node/agentOutput/largeLines.ts).
      entry: {
        extension: './src-node/extension.ts',
        keeper: './src-node/keeper/main.ts',
        lineWorker: './src-node/agentOutput/lineWorker.ts',
      },
      output: { path: dist('node'), filename: '[name].js', library: { type: 'commonjs2' } },
      // ws's optional native helpers (for agents served over the standard transport): used when installed.
      externals: { ...vscodeExternal, bufferutil: 'commonjs bufferutil', 'utf-8-validate': 'commonjs utf-8-validate' },
    },
    {
      ...web,
      name: 'web',
      entry: { extension: './src-web/extension.ts' },
      output: { path: dist('web'), filename: '[name].js', library: { type: 'commonjs' } },
      externals: vscodeExternal,
      resolve: { ...web.resolve, mainFields: ['browser', 'module', 'main'], fallback: {} },
      plugins: [new NoNodeBuiltinsPlugin()],
    },
    {
      ...base('web', mode),
      name: 'webview',
      entry: { webview: './webview/main.ts' },
      output: { path: dist('webview'), filename: '[name].js' },
      plugins: [
        new NoNodeBuiltinsPlugin(),
        new CopyFilesPlugin([[require.resolve('@vscode/codicons/dist/codicon.ttf'), dist('webview', 'codicon.ttf')]]),
      ],
    },
    {
      ...node,
      name: 'bridge',
      // The bridge's agents are watched by a keeper of its own (src-node/keeper). The Demo Agent
      // (src-node/demo) is beside it: `vscode-acp-bridge -- node demo-agent.js` serves it to the web.
      entry: {
        bridge: './src-node/bridge/main.ts',
        keeper: './src-node/keeper/main.ts',
        'demo-agent': './src-node/demo/main.ts',
      },
      output: { path: dist('bridge'), filename: '[name].js' },
      externals: { bufferutil: 'commonjs bufferutil', 'utf-8-validate': 'commonjs utf-8-validate' },
      plugins: [new webpack.BannerPlugin({ banner: '#!/usr/bin/env node', raw: true })],
    },
    {
      ...node,
      name: 'tests-node',
      entry: {
        agent: './test/agent/main.ts',
        standardServer: './test/agent/standardServer.ts',
        // The editor server's endpoint before the official MCP conformance suite (the mcp-conformance stage).
        mcpConformance: './test/mcp/conformance.ts',
        unit: testFiles('test/unit'),
        // The unit tests start terminals through processTree, which starts a keeper beside its bundle.
        keeper: './src-node/keeper/main.ts',
        lineWorker: './src-node/agentOutput/lineWorker.ts',
        // A repository that names a program of its own wherever Git runs one, for the workspaces stage.
        hostileRepo: './test/unit/src-node/checkpoints/hostileRepoMain.ts',
      },
      output: { path: dist('test'), filename: '[name].js' },
      externals: {
        mocha: 'commonjs mocha',
        bufferutil: 'commonjs bufferutil',
        'utf-8-validate': 'commonjs utf-8-validate',
      },
    },
    {
      ...node,
      name: 'tests-node-host',
      entry: {
        index: './test/integration/node/index.ts',
        orphans: './test/integration/orphans/index.ts',
        workspaces: './test/integration/workspaces/index.ts',
      },
      output: { path: dist('node', 'test'), filename: '[name].js', library: { type: 'commonjs2' } },
      externals: {
        ...vscodeExternal,
        mocha: 'commonjs mocha',
        bufferutil: 'commonjs bufferutil',
        'utf-8-validate': 'commonjs utf-8-validate',
      },
    },
    {
      ...node,
      name: 'tests-real-agents',
      entry: { index: './test/integration/real/index.ts' },
      output: { path: dist('real', 'test'), filename: '[name].js', library: { type: 'commonjs2' } },
      externals: vscodeExternal,
    },
    {
      ...web,
      name: 'tests-web-host',
      // real: the real-agents stage's run on this host (test/real-agents/webHost.mjs).
      entry: { index: './test/integration/web/index.ts', real: './test/integration/web/real.ts' },
      // commonjs2 (module.exports = ...): mocha's browser build replaces
      // module.exports with itself while loading, and the last assignment wins.
      output: { path: dist('web', 'test'), filename: '[name].js', library: { type: 'commonjs2' } },
      externals: vscodeExternal,
      resolve: { ...web.resolve, mainFields: ['browser', 'module', 'main'], fallback: {} },
      plugins: [new NoNodeBuiltinsPlugin()],
    },
  ];
  // `--env webEntry=FILE` builds FILE as the web bundle alone (the guard test).
  if (env.webEntry) {
    const webConfig = configs.find((c) => c.name === 'web');
    return {
      ...webConfig,
      entry: { guard: env.webEntry },
      output: { ...webConfig.output, path: path.join(require('node:os').tmpdir(), 'acp-web-guard') },
    };
  }
  return configs.map((c) => ({ ...c, plugins: [...(c.plugins ?? []), new BuildStampPlugin(c.name)] }));
};
