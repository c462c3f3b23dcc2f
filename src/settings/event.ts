import { readFileSync } from 'node:fs';

/** The few fields of a webhook payload the action reads; everything else is ignored. */
export interface EventPayload {
  number?: unknown;
  pull_request?: {
    number?: unknown;
    base?: { ref?: unknown; repo?: { full_name?: unknown } };
    head?: { repo?: { full_name?: unknown } | null };
  };
  merge_group?: { head_ref?: unknown; base_ref?: unknown };
  workflow_run?: {
    event?: unknown;
    head_branch?: unknown;
    head_repository?: { owner?: { login?: unknown } } | null;
    pull_requests?: { number?: unknown; base?: { ref?: unknown } }[];
  };
  repository?: { default_branch?: unknown };
}

/** A missing or unreadable payload is an empty one: local runs and some triggers have none. */
export function readEventPayload(path: string | undefined): EventPayload {
  if (!path) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as EventPayload) : {};
  } catch {
    return {};
  }
}
