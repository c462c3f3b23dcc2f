import type { Logger } from '../trunk/client.js';

import type * as CoreModule from '@actions/core';

type Core = typeof CoreModule;

/**
 * Log lines of the Trunk reads. They may come before @actions/core has loaded (it loads while the
 * first requests are in flight): they wait here, then go out in order inside one log group.
 */
export class DeferredLog implements Logger {
  private core?: Core;
  private open = false;
  private readonly waiting: [keyof Logger, string][] = [];

  constructor(private readonly group: string) {}

  attach(core: Core): void {
    if (this.core) return;
    this.core = core;
    core.startGroup(this.group);
    this.open = true;
    for (const [level, message] of this.waiting.splice(0)) core[level](message);
  }

  close(): void {
    if (this.open) this.core?.endGroup();
    this.open = false;
  }

  debug(message: string): void {
    this.write('debug', message);
  }

  info(message: string): void {
    this.write('info', message);
  }

  warning(message: string): void {
    this.write('warning', message);
  }

  private write(level: keyof Logger, message: string): void {
    if (this.core) this.core[level](message);
    else this.waiting.push([level, message]);
  }
}
