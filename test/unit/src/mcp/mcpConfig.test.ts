import * as assert from 'node:assert/strict';
import { parseMcpJson } from '../../../../src/mcp/mcpJson';
import { planMcp, type McpSourceRead, type PlanContext } from '../../../../src/mcp/mcpPlan';
import { problemText } from '../../../../src/mcp/problems';
import { readServer, settingServers } from '../../../../src/mcp/serverConfig';
import { commandProblem } from '../../../../src/mcp/serverChecks';
import { planNotice } from '../../../../src/mcp/planText';
import { Redactor } from '../../../../src/secrets/redactor';

const utf8 = (text: string) => new TextEncoder().encode(text);
const setting = (id: 'user' | 'workspace' | 'folder', value: unknown): McpSourceRead => {
  const read = settingServers(value, `${id}:vscode-acp.mcpServers`);
  return read.ok ? { id, servers: read.servers.map((s) => readServer(s.value, s.at)) } : { id, problem: read.problem };
};
const stdio = (name: string, command = '/usr/bin/node', extra: object = {}) => ({
  name,
  command,
  args: ['server.js'],
  ...extra,
});
const context = (over: Partial<PlanContext> = {}): PlanContext => ({
  agent: { http: true, sse: false },
  agentKnown: true,
  os: 'posix',
  env: () => undefined,
  ...over,
});
const names = (plan: ReturnType<typeof planMcp>) => plan.servers.map((s) => s.name);

describe('MCP servers: precedence and names', () => {
  it("a higher source replaces a lower one's server of the same name, ignoring case; the rest add up in source order", () => {
    const project = parseMcpJson(utf8('{ "servers": { "Docs": { "command": "/opt/docs" } } }'));
    const plan = planMcp(
      [
        setting('user', [stdio('docs', '/user/docs'), stdio('user-only')]),
        setting('workspace', [stdio('ws-only'), stdio('USER-ONLY', '/ws/user-only')]),
        setting('folder', []),
        project,
      ],
      context(),
    );
    assert.deepEqual(names(plan), ['ws-only', 'USER-ONLY', 'Docs']);
    assert.equal((plan.servers[1] as { command: string }).command, '/ws/user-only');
    assert.equal((plan.servers[2] as { command: string }).command, '/opt/docs');
    assert.deepEqual(
      plan.entries.filter((e) => e.state === 'replaced').map((e) => e.at),
      ['user:vscode-acp.mcpServers[0]', 'user:vscode-acp.mcpServers[1]'],
    );
  });

  it('two servers of one name in one source are both refused, and nothing lower stands in for them', () => {
    const plan = planMcp([setting('user', [stdio('a')]), setting('workspace', [stdio('A'), stdio('a')])], context());
    assert.deepEqual(names(plan), []);
    assert.deepEqual(
      plan.entries.map((e) => e.state),
      ['replaced', 'left out', 'left out'],
    );
    assert.ok(
      plan.entries[1].problem &&
        problemText(plan.entries[1].problem).startsWith('[MCP_CONFIG_DUPLICATE] workspace:vscode-acp.mcpServers[0] '),
    );
  });

  it('a refused server of a higher source still replaces the lower one (fail closed)', () => {
    const plan = planMcp(
      [setting('user', [stdio('a')]), setting('workspace', [stdio('a', 'relative/cmd')])],
      context(),
    );
    assert.deepEqual(names(plan), []);
    assert.equal(plan.entries[1].problem?.code, 'MCP_CONFIG_UNSAFE');
  });
});

describe('MCP servers: what is sent', () => {
  it("mcp.json converts to ACP's shape: env and headers maps become name/value lists, stdio without a type", () => {
    const plan = planMcp(
      [
        parseMcpJson(
          utf8(`{
      // comments and trailing commas, as VS Code allows
      "servers": {
        "local": { "type": "stdio", "command": "/bin/srv", "args": ["-v"], "env": { "TOKEN": "\${env:MY_TOKEN}", "MODE": "x" }, },
        "remote": { "type": "http", "url": "https://mcp.example.com/v1", "headers": { "Authorization": "Bearer \${env:MY_TOKEN}" } },
      },
      "inputs": [],
    }`),
        ),
      ],
      context({ env: (n) => (n === 'MY_TOKEN' ? 'tok-123456' : undefined) }),
    );
    assert.deepEqual(plan.servers, [
      {
        name: 'local',
        command: '/bin/srv',
        args: ['-v'],
        env: [
          { name: 'TOKEN', value: 'tok-123456' },
          { name: 'MODE', value: 'x' },
        ],
      },
      {
        type: 'http',
        name: 'remote',
        url: 'https://mcp.example.com/v1',
        headers: [{ name: 'Authorization', value: 'Bearer tok-123456' }],
      },
    ]);
    assert.deepEqual([...plan.secrets], ['tok-123456']);
  });

  it("HTTP and SSE need the agent's mcpCapabilities; unknown agent (Show MCP Servers before connecting) lists them", () => {
    const servers = [
      { type: 'http', name: 'h', url: 'https://a.example/mcp' },
      { type: 'sse', name: 's', url: 'https://b.example/sse' },
    ];
    assert.deepEqual(names(planMcp([setting('user', servers)], context({ agent: { http: true } }))), ['h']);
    assert.deepEqual(names(planMcp([setting('user', servers)], context({ agent: undefined }))), []);
    assert.deepEqual(names(planMcp([setting('user', servers)], context({ agent: undefined, agentKnown: false }))), [
      'h',
      's',
    ]);
    const left = planMcp([setting('user', servers)], context({ agent: {} })).entries.map((e) => e.problem?.code);
    assert.deepEqual(left, ['MCP_AGENT_UNSUPPORTED', 'MCP_AGENT_UNSUPPORTED']);
  });

  it('an ${env:...} that is not set leaves the server out, by position, naming no variable', () => {
    const plan = planMcp(
      [setting('user', [stdio('a', '/bin/a', { env: [{ name: 'K', value: '${env:NOT_SET_ANYWHERE}' }] })])],
      context(),
    );
    assert.deepEqual(names(plan), []);
    assert.equal(
      problemText(plan.entries[0].problem!),
      '[MCP_ENV_UNSET] user:vscode-acp.mcpServers[0].env[0].value names an environment variable that is not set where VS Code runs',
    );
  });

  it('variables anywhere else, or of another kind, are refused', () => {
    for (const server of [
      stdio('a', '/bin/${env:X}'),
      stdio('a', '/bin/a', { args: ['${workspaceFolder}'] }),
      stdio('a', '/bin/a', { env: [{ name: 'K', value: '${input:key}' }] }),
      stdio('a', '/bin/a', { env: [{ name: 'K', value: '${env:A' }] }),
      { type: 'http', name: 'a', url: 'https://x.example/${env:P}' },
    ]) {
      const plan = planMcp([setting('user', [server])], context({ env: () => 'v' }));
      assert.equal(plan.entries[0].problem?.code, 'MCP_CONFIG_UNSUPPORTED', JSON.stringify(server));
    }
  });

  it('the chat notice lists what was left out, with codes and positions', () => {
    const plan = planMcp([setting('user', [stdio('ok'), stdio('rel', 'node')])], context());
    assert.equal(
      planNotice(plan),
      '1 MCP server was sent to the agent; some were left out (ACP: Show MCP Servers lists them all):\n[MCP_CONFIG_UNSAFE] user:vscode-acp.mcpServers[1].command should be an absolute path to a program (no search path, no shell)',
    );
    assert.equal(planNotice(planMcp([setting('user', [stdio('ok')])], context())), undefined);
  });
});

describe('MCP servers: commands and URLs', () => {
  it('stdio commands are absolute paths to programs', () => {
    assert.equal(commandProblem('/usr/bin/node', 'posix'), undefined);
    for (const bad of ['node', './srv', '../srv', 'bin/srv', '~/srv', '\\\\server\\share\\srv.exe', '//server/srv']) {
      assert.ok(commandProblem(bad, 'posix'), bad);
    }
    assert.equal(commandProblem('C:\\Tools\\srv.exe', 'windows'), undefined);
    assert.equal(commandProblem('c:\\tools\\SRV.COM', 'windows'), undefined);
    for (const bad of [
      'C:\\t\\srv.bat',
      'C:\\t\\srv.CMD',
      'C:\\t\\srv.ps1',
      'C:\\t\\srv.js',
      'srv.exe',
      '/usr/bin/srv',
      'C:srv.exe',
      '\\\\?\\C:\\srv.exe',
    ]) {
      assert.ok(commandProblem(bad, 'windows'), bad);
    }
    // The bridge's machine is not known: either absolute form, Windows rules for a Windows path.
    assert.equal(commandProblem('/usr/bin/node', undefined), undefined);
    assert.ok(commandProblem('C:\\t\\srv.cmd', undefined));
  });

  it('HTTP and SSE servers need https: URLs without credentials or fragment', () => {
    const code = (url: string) =>
      planMcp([setting('user', [{ type: 'http', name: 'h', url }])], context()).entries[0].problem?.code;
    assert.equal(code('https://mcp.example.com/x?y=1'), undefined);
    for (const url of [
      'http://mcp.example.com',
      'ftp://x',
      'https://u:p@x.example',
      'https://u@x.example',
      'https://x.example/#f',
      'https://x.example/#',
      'javascript:alert(1)',
      'ws://x',
    ]) {
      assert.equal(code(url), 'MCP_CONFIG_UNSAFE', url);
    }
    for (const url of ['not a url', '/relative']) assert.equal(code(url), 'MCP_CONFIG_INVALID', url);
  });
});

describe('MCP servers: .vscode/mcp.json as a file', () => {
  it('a byte order mark is fine; UTF-16, bad UTF-8, 17 levels, 257 KiB and a repeated property are refused as a whole', () => {
    const ok = parseMcpJson(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"servers":{"a":{"command":"/a"}}}')]));
    assert.equal(ok.servers?.length, 1);
    const code = (bytes: Uint8Array) => {
      const read = parseMcpJson(bytes);
      const first = read.servers?.[0];
      return read.problem?.code ?? (first && 'problem' in first ? first.problem.code : undefined);
    };
    assert.equal(code(new Uint8Array([0xff, 0xfe, ...utf8('{}')])), 'MCP_CONFIG_ENCODING');
    assert.equal(
      code(new Uint8Array([...utf8('{"servers":{"a":{"command":"/'), 0xc3, 0x28, ...utf8('"}}}')])),
      'MCP_CONFIG_ENCODING',
    );
    const nest = (n: number) =>
      utf8(`{"servers":{"a":{"command":"/a","args":${'['.repeat(n - 3)}${']'.repeat(n - 3)}}}}`);
    assert.equal(code(nest(16)), 'MCP_CONFIG_INVALID', '16 levels parse (args then has the wrong shape)');
    assert.equal(code(nest(17)), 'MCP_CONFIG_TOO_LARGE');
    assert.equal(code(utf8('['.repeat(200_000))), 'MCP_CONFIG_TOO_LARGE');
    assert.equal(code(utf8(`{"servers":{},"x":"${'a'.repeat(256 * 1024)}"}`)), 'MCP_CONFIG_TOO_LARGE');
    assert.equal(code(utf8('{"servers":{"a":{"command":"/a","command":"/b"}}}')), 'MCP_CONFIG_DUPLICATE');
    assert.equal(code(utf8('{"servers":{"a":{"command":"/a"}},"inputs":[{"id":"key"}]}')), 'MCP_CONFIG_UNSUPPORTED');
    assert.equal(code(utf8('{"servers":{"a":{"command":"/a"}}')), 'MCP_CONFIG_SYNTAX');
  });

  it('__proto__ is a key like any other: no prototype changes, and it is not a server property', () => {
    const read = parseMcpJson(
      utf8(
        '{"servers":{"__proto__":{"command":"/a","polluted":true},"b":{"command":"/b","__proto__":{"polluted":true}}}}',
      ),
    );
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(
      read.servers?.map((s) => ('problem' in s ? s.problem.code : 'ok')),
      ['MCP_CONFIG_UNSUPPORTED', 'MCP_CONFIG_UNSUPPORTED'],
    );
  });

  it('unsupported server properties fail closed, naming no key', () => {
    for (const prop of ['envFile', 'cwd', 'oauth', 'dev', 'sandboxEnabled']) {
      const read = parseMcpJson(utf8(`{"servers":{"s":{"command":"/a","${prop}":"x"}}}`));
      const problem = read.servers?.[0] && 'problem' in read.servers[0] ? read.servers[0].problem : undefined;
      assert.equal(
        problem && problemText(problem),
        '[MCP_CONFIG_UNSUPPORTED] .vscode/mcp.json.servers[0] has a property this extension does not support (such as envFile, cwd, OAuth or sandbox settings)',
        prop,
      );
    }
  });
});

describe('Redactor', () => {
  it('redacts each secret raw and JSON-escaped, longest first, and ignores short values', () => {
    const r = new Redactor();
    r.add(['s3cr"et\\x', 'abc', 's3cr"et\\x-longer']);
    assert.equal(r.redact('a s3cr"et\\x-longer b s3cr"et\\x c abc'), 'a [redacted] b [redacted] c abc');
    assert.equal(r.redact(JSON.stringify({ v: 's3cr"et\\x' })), '{"v":"[redacted]"}');
  });
});
