/**
 * Servers on 127.0.0.1:0 that fail the way networks and proxies fail, below the level an HTTP
 * simulator can fake: refused and never-accepted connections, TLS the client cannot trust, a reset
 * or a stall in the middle of a body, a 101 nobody asked for, a redirect whose Location is no URL.
 *
 * Each one is a raw `net` or `tls` server that reads one request head and then misbehaves, so the
 * tests see exactly what a client on a real network would see.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { RequestListener } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A self-signed certificate (CA:TRUE, valid 100 years) for localhost, 127.0.0.1 and trunk.test. */
export const TLS_CERT_PATH = fileURLToPath(new URL('../fixtures/tls/cert.pem', import.meta.url));
export const TLS_KEY_PATH = fileURLToPath(new URL('../fixtures/tls/key.pem', import.meta.url));

export function tlsCredentials(): { cert: string; key: string } {
  return { cert: readFileSync(TLS_CERT_PATH, 'utf8'), key: readFileSync(TLS_KEY_PATH, 'utf8') };
}

/**
 * A host under `.invalid` (RFC 6761), which no resolver answers: a DNS failure without a network.
 * https, because the action takes plain http for loopback hosts only.
 */
export const DNS_FAILURE_URL = 'https://trunk-health-gate.invalid/v1';

export interface FaultServer {
  /** http(s)://127.0.0.1:PORT */
  origin: string;
  /** The origin with Trunk's `/v1`, as the action's api-url takes it. */
  url: string;
  close(): Promise<void>;
}

const open = new Set<FaultServer>();

/** For afterEach/afterAll: stops every fault server still running. */
export async function closeFaultServers(): Promise<void> {
  await Promise.all([...open].map((server) => server.close()));
}

function track(origin: string, stop: () => Promise<void>): FaultServer {
  const server: FaultServer = {
    origin,
    url: `${origin}/v1`,
    close: async () => {
      open.delete(server);
      await stop();
    },
  };
  open.add(server);
  return server;
}

function listen(server: Server): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
}

/** Closes a server and destroys the sockets it still holds (a stalled client must not keep it). */
function stopper(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((done) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => done());
    });
}

/** A port that was free a moment ago and now has no listener: connecting is refused at once. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((done) => server.close(() => done()));
  // Another address of the loopback range: nothing here listens on it, so a server that takes the
  // freed port on 127.0.0.1 meanwhile cannot answer in its place.
  return `http://127.0.0.3:${port}/v1`;
}

/** What a raw server does once a request head has arrived. */
export type Misbehaviour = (socket: Socket, head: string) => void;

/** A plain TCP server that waits for a request head (up to the blank line), then misbehaves. */
export async function startRawServer(misbehave: Misbehaviour): Promise<FaultServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      misbehave(socket, received.slice(0, end));
    };
    socket.on('data', onData);
  });
  const port = await listen(server);
  return track(`http://127.0.0.1:${port}`, stopper(server, sockets));
}

const BODY_HEAD = (length: number) =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** Announces a 4 kB JSON body, sends part of it, then resets the connection (TCP RST). */
export const resetMidBody: Misbehaviour = (socket) => {
  socket.write(`${BODY_HEAD(4096)}{"tests":[{"id":"`, () => socket.resetAndDestroy());
};

/** Announces a body, sends part of it, then sends nothing more and keeps the connection open. */
export const stallBody: Misbehaviour = (socket) => {
  socket.write(`${BODY_HEAD(4096)}{"tests":[`);
};

/** Answers `101 Switching Protocols` to a request that asked for no upgrade, then stays silent. */
export const switchingProtocols: Misbehaviour = (socket) => {
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  );
};

/** A redirect whose Location cannot be parsed as a URL. */
export const unparsableRedirect: Misbehaviour = (socket) => {
  socket.end(
    'HTTP/1.1 307 Temporary Redirect\r\nLocation: http://[trunk-api/v1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
  );
};

/**
 * An HTTPS server with the self-signed fixture certificate. A client that does not trust it (the
 * default) fails the TLS handshake; with NODE_EXTRA_CA_CERTS=TLS_CERT_PATH it is trusted.
 * `handler` answers the requests of a client that gets through (404 unless given).
 */
export async function startTlsServer(handler?: RequestListener): Promise<FaultServer> {
  const server = createHttpsServer(
    tlsCredentials(),
    handler ??
      ((_req, res) => {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      }),
  );
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A handshake the client aborts is expected here, not an error of the test.
  server.on('tlsClientError', () => undefined);
  const port = await listen(server);
  return track(`https://127.0.0.1:${port}`, stopper(server, sockets));
}

/**
 * A connect timeout on loopback. Connecting to 127.0.0.1 is refused or accepted at once, so the
 * only way to make a connect hang is a listener that never accepts: its accept queue fills, and the
 * kernel (Linux) then drops further SYNs instead of refusing them, so the next client waits in
 * SYN-SENT until it gives up. Node accepts eagerly, so the listener lives in a child process whose
 * event loop is blocked right after listening; the queue is then filled from this process.
 */
export async function startNeverAcceptingServer(): Promise<FaultServer> {
  const script = [
    "const net = require('node:net');",
    'const server = net.createServer();',
    "server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {",
    '  process.stdout.write(server.address().port + "\\n");',
    // Blocks the event loop without spending CPU: nothing is ever accepted.
    '  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);',
    '});',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await firstLine(child);
  const fillers = await fillAcceptQueue(port);
  return track(`http://127.0.0.1:${port}`, async () => {
    for (const socket of fillers) socket.destroy();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    }
  });
}

function firstLine(child: ChildProcess): Promise<number> {
  return new Promise((done, fail) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) done(Number(text.trim()));
    });
    child.once('exit', () => fail(new Error('the never-accepting listener exited early')));
  });
}

/**
 * Opens connections until one no longer completes within `waitMs`: the accept queue is then full.
 * Returns every socket opened, so they can be closed with the server.
 */
async function fillAcceptQueue(port: number, waitMs = 300): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let attempt = 0; attempt < 16; attempt += 1) {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    sockets.push(socket);
    const connected = await new Promise<boolean>((done) => {
      const timer = setTimeout(() => done(false), waitMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        done(true);
      });
    });
    if (!connected) return sockets;
  }
  throw new Error(`the accept queue of 127.0.0.1:${port} never filled up`);
}
