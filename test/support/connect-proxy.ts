/**
 * A forward proxy on 127.0.0.1 for the proxy tests: CONNECT opens a tunnel, an absolute-URI request
 * is forwarded. It resolves made-up host names itself (`trunk.test:443` → a local port), so a
 * client reaches them only through it, and it records every request head and every byte it relays,
 * so a test can prove what the proxy could and could not read.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ProxyOptions {
  /** host:port as the client names it → the local port that answers for it. */
  routes: Record<string, number>;
  /** Demand `Proxy-Authorization: Basic` with these; 407 otherwise. */
  credentials?: { user: string; password: string };
  /** Answer every CONNECT with this status instead of a tunnel (e.g. 502). */
  refuseWith?: number;
  /** Read CONNECT requests and never answer them. */
  silent?: boolean;
  /** Listen with TLS (an https:// proxy) using this certificate and key. */
  tls?: { cert: string; key: string };
}

export interface ProxiedRequest {
  method: string;
  /** The request target: host:port for CONNECT, the absolute URL otherwise. */
  target: string;
  headers: IncomingHttpHeaders;
  /** The status the proxy answered (200 for a tunnel it opened); undefined while it is silent. */
  status?: number;
}

export class ConnectProxy {
  readonly requests: ProxiedRequest[] = [];
  /** TCP connections clients opened to it: fewer than requests when they are kept alive. */
  connections = 0;
  /** Every byte relayed from clients to servers, inside tunnels and in forwarded requests. */
  private readonly relayed: Buffer[] = [];
  private readonly sockets = new Set<Duplex>();
  private readonly server;
  private port = 0;

  constructor(private readonly options: ProxyOptions) {
    const onRequest = (req: IncomingMessage, res: ServerResponse) => this.forward(req, res);
    this.server = options.tls ? createTlsServer(options.tls, onRequest) : createServer(onRequest);
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.tunnel(req, socket, head),
    );
    this.server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.track(socket);
    });
    this.server.on('tlsClientError', () => undefined);
  }

  async start(): Promise<this> {
    await new Promise<void>((done, fail) => {
      this.server.once('error', fail);
      this.server.listen(0, '127.0.0.1', () => done());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** http://127.0.0.1:PORT (https:// with `tls`), as HTTPS_PROXY takes it. */
  get url(): string {
    return `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  /** The URL with credentials in it, percent-encoded as a proxy variable carries them. */
  urlWith(user: string, password: string): string {
    const url = new URL(this.url);
    url.username = encodeURIComponent(user);
    url.password = encodeURIComponent(password);
    return url.href.replace(/\/$/, '');
  }

  /** CONNECT requests it received. */
  get connects(): ProxiedRequest[] {
    return this.requests.filter((request) => request.method === 'CONNECT');
  }

  /** Whether `text` appears in any request head or relayed byte: what the proxy could read. */
  saw(text: string): boolean {
    const heads = JSON.stringify(this.requests);
    return heads.includes(text) || Buffer.concat(this.relayed).includes(text);
  }

  /** Connections from clients still open (tunnels and their server ends included). */
  get openSockets(): number {
    return this.sockets.size;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  /** The status to refuse a request with, or undefined to serve it. */
  private refusal(req: IncomingMessage): number | undefined {
    const { credentials } = this.options;
    if (credentials) {
      const expected = Buffer.from(`${credentials.user}:${credentials.password}`).toString(
        'base64',
      );
      if (req.headers['proxy-authorization'] !== `Basic ${expected}`) return 407;
    }
    return req.method === 'CONNECT' ? this.options.refuseWith : undefined;
  }

  private tunnel(req: IncomingMessage, client: Duplex, head: Buffer): void {
    this.track(client);
    // A handed-over CONNECT socket is half-open: without this, a client's close would go unseen.
    client.on('end', () => client.end());
    const record: ProxiedRequest = {
      method: 'CONNECT',
      target: req.url ?? '',
      headers: req.headers,
    };
    this.requests.push(record);
    if (this.options.silent) return;
    const port = this.options.routes[record.target];
    const status = this.refusal(req) ?? (port === undefined ? 502 : undefined);
    if (status !== undefined || port === undefined) {
      record.status = status;
      const challenge = status === 407 ? 'Proxy-Authenticate: Basic realm="proxy"\r\n' : '';
      client.end(`HTTP/1.1 ${status} Refused\r\n${challenge}Content-Length: 0\r\n\r\n`);
      return;
    }
    const server = connect({ host: '127.0.0.1', port }, () => {
      record.status = 200;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) this.relay(head, server);
      client.on('data', (chunk: Buffer) => this.relay(chunk, server));
      server.pipe(client);
    });
    this.track(server);
    server.on('close', () => client.destroy());
    client.on('close', () => server.destroy());
  }

  private relay(chunk: Buffer, to: Duplex): void {
    this.relayed.push(Buffer.from(chunk));
    to.write(chunk);
  }

  /** An absolute-URI request: sent on to the host it names, the answer passed back. */
  private forward(req: IncomingMessage, res: ServerResponse): void {
    const record: ProxiedRequest = {
      method: req.method ?? '',
      target: req.url ?? '',
      headers: req.headers,
    };
    this.requests.push(record);
    let target: URL | undefined;
    try {
      target = new URL(record.target);
    } catch {
      target = undefined;
    }
    const port = target && this.options.routes[target.host];
    const status = this.refusal(req) ?? (port === undefined ? 502 : undefined);
    if (status !== undefined || target === undefined || port === undefined) {
      record.status = status ?? 400;
      res.writeHead(record.status).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const onward = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: target.pathname + target.search,
        headers,
      },
      (answer) => {
        record.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => this.relayed.push(Buffer.from(chunk)));
    req.pipe(onward);
  }
}

export async function startConnectProxy(options: ProxyOptions): Promise<ConnectProxy> {
  return new ConnectProxy(options).start();
}
