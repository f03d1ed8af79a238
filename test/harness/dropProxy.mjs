/**
 * A TCP pass-through in front of the bridge that can cut every connection on
 * request, the way a network drop does (no WebSocket close frame): the web
 * tests connect through it, and a request for `GET /__drop` (from the test,
 * in the web worker) ends all other connections at once. `GET /__drop?refuse=N`
 * also refuses the next N connections (the network is still down while the
 * bridge is up), and `GET /__refusing` says how many of those are left.
 * Everything else is relayed byte for byte.
 */
import * as net from 'node:net';

const DROP_PATH = '/__drop';
const REFUSING_PATH = '/__refusing';

/** A plain-text answer any origin can read: the test only needs to know what happened. */
const answer = (client, text) =>
  client.end(
    `HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );

/** @returns {Promise<{ port: number, drops: () => number, close: () => Promise<void> }>} */
export function startDropProxy(targetPort) {
  const live = new Set();
  let drops = 0;
  let refusing = 0;
  const server = net.createServer((client) => {
    client.once('data', (first) => {
      const request = first.toString('latin1');
      if (request.startsWith(`GET ${DROP_PATH}`)) {
        drops++;
        refusing = Number(/^GET \S*[?&]refuse=(\d+)/.exec(request)?.[1] ?? 0);
        for (const pair of live) pair.forEach((socket) => socket.destroy());
        live.clear();
        return answer(client, 'dropped');
      }
      if (request.startsWith(`GET ${REFUSING_PATH}`)) return answer(client, String(refusing));
      if (refusing > 0) {
        refusing--;
        return client.destroy();
      }
      const upstream = net.connect(targetPort, '127.0.0.1');
      const pair = [client, upstream];
      live.add(pair);
      const end = () => {
        live.delete(pair);
        pair.forEach((socket) => socket.destroy());
      };
      upstream.on('error', end).on('close', end);
      client.on('error', end).on('close', end);
      upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    client.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        drops: () => drops,
        close: () =>
          new Promise((done) => {
            for (const pair of live) pair.forEach((socket) => socket.destroy());
            server.close(() => done());
          }),
      }),
    );
  });
}
