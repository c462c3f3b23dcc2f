/** What the API simulators share: programmable faults, request bodies, held answers, closing. */
import type { IncomingMessage, Server } from 'node:http';

/**
 * Faults wait in order; a request takes the first one that matches it, and a fault is spent after
 * `times` requests (1 unless given; Infinity for an outage).
 */
export class FaultQueue<F extends { times?: number }, R> {
  private readonly entries: { fault: F; left: number }[] = [];

  constructor(private readonly matches: (fault: F, request: R) => boolean) {}

  add(fault: F): void {
    this.entries.push({ fault, left: fault.times ?? 1 });
  }

  /** Faults not yet spent, in the order they will be tried. */
  get pending(): F[] {
    return this.entries.map((entry) => entry.fault);
  }

  clear(): void {
    this.entries.length = 0;
  }

  take(request: R): F | undefined {
    const index = this.entries.findIndex(({ fault }) => this.matches(fault, request));
    const entry = this.entries[index];
    if (!entry) return undefined;
    entry.left -= 1;
    if (entry.left <= 0) this.entries.splice(index, 1);
    return entry.fault;
  }
}

/** The whole body; a client that gives up mid-body still gets recorded, with what it sent. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => done(Buffer.concat(chunks).toString('utf8')));
  });
}

export function parseJson(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The delays a simulator holds its answers with, abandoned all at once on close: a handler that
 * waits on one simply stops, and no timer outlives the server.
 */
export class PendingTimers {
  private readonly timers = new Set<NodeJS.Timeout>();

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        done();
      }, ms);
      this.timers.add(timer);
    });
  }

  abandon(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/** Closes a server at once, dropping its open connections (hanging answers included). */
export function closeServer(server: Server): Promise<void> {
  const closing = new Promise<void>((done) => server.close(() => done()));
  server.closeAllConnections();
  return closing;
}
