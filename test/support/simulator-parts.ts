/** What the API simulators share: programmable faults, request bodies, held answers, closing. */
import type { IncomingMessage, Server } from 'node:http';
import { randomInt } from 'node:crypto';

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

/**
 * Waves of requests, counted across every simulator a run talks to: a request that arrives after
 * another answer was sent starts a new wave (one more than the highest wave answered so far), so
 * the count is the longest chain of requests that each waited for an answer. It is counted from
 * the order of arrivals and answers, never from a clock: a request sent late only adds waves.
 */
export class WaveLog {
  private answeredWave = 0;
  readonly arrivals: { label: string; wave: number }[] = [];

  /** A request arrived: its wave, to hand back to `answered` when its answer is sent. */
  arrive(label: string): number {
    const wave = this.answeredWave + 1;
    this.arrivals.push({ label, wave });
    return wave;
  }

  answered(wave: number): void {
    this.answeredWave = Math.max(this.answeredWave, wave);
  }

  get waves(): number {
    return Math.max(0, ...this.arrivals.map((one) => one.wave));
  }

  /** "1: GET /v2/repositories, …" per wave, for a failure message. */
  describe(): string {
    const lines: string[] = [];
    for (let wave = 1; wave <= this.waves; wave++) {
      const labels = this.arrivals.filter((one) => one.wave === wave).map((one) => one.label);
      lines.push(`${wave}: ${labels.join(', ')}`);
    }
    return lines.join('\n');
  }
}

/**
 * Answers held under the harness's control, not by a clock: `hold(name, until)` keeps every
 * answer to `name` until an answer to `until` has been sent, so a test can put one read's answer
 * after another's in every run. Released all at once when the simulator closes.
 */
export class AnswerHolds<N extends string> {
  private readonly holds: { name: N; until: N; wake: (() => void)[] }[] = [];
  private readonly done = new Set<N>();

  hold(name: N, until: N): void {
    this.holds.push({ name, until, wake: [] });
  }

  /** Resolves once no hold keeps `name` waiting. */
  async wait(name: N | undefined): Promise<void> {
    for (const hold of this.holds) {
      if (hold.name !== name || this.done.has(hold.until)) continue;
      await new Promise<void>((wake) => hold.wake.push(wake));
    }
  }

  /** An answer to `name` was sent: the answers held until it go. */
  answered(name: N | undefined): void {
    if (name === undefined || this.done.has(name)) return;
    this.done.add(name);
    for (const hold of this.holds) {
      if (hold.until !== name) continue;
      for (const wake of hold.wake.splice(0)) wake();
    }
  }

  releaseAll(): void {
    for (const hold of this.holds) for (const wake of hold.wake.splice(0)) wake();
    this.holds.length = 0;
  }
}

/**
 * A request id as Trunk sends one (`req_…`), unique across simulators, and made of the letters
 * a to f only: an id holding digits could hold "503" or "429" by chance, and a test that looks for
 * a status in a message would then pass or fail by luck.
 */
export function requestIdFor(event: number): string {
  const letters = (value: number, width: number) =>
    Array.from({ length: width }, (_, i) => 'abcdef'[Math.floor(value / 6 ** i) % 6]).join('');
  return `req_${letters(event, 7)}_${letters(randomInt(6 ** 8), 8)}`;
}
