/**
 * An address nothing should reach: where a hostile workspace points the
 * bridge setting. It answers every request with 403 and remembers what it
 * was asked (path and query, so a token sent to it is seen), and
 * `GET /__seen` (from the test, in the web worker) says how many requests
 * came before it, not counting its own.
 */
import * as http from 'node:http';

const SEEN_PATH = '/__seen';

/** @returns {Promise<{ url: string, requests: () => string[], close: () => Promise<void> }>} */
export async function startTrap() {
  const requests = [];
  const server = http.createServer((request, response) => {
    if (request.url === SEEN_PATH) {
      response.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
      return response.end(String(requests.length));
    }
    requests.push(request.url ?? '');
    response.writeHead(403).end();
  });
  // A WebSocket upgrade is a request too: counted, then refused.
  server.on('upgrade', (request, socket) => {
    requests.push(request.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `ws://127.0.0.1:${port}/acp`,
    requests: () => [...requests],
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
