import { readFileSync } from 'node:fs';

/** The few fields of a webhook payload the action reads; everything else is ignored. */
export interface EventPayload {
  number?: unknown;
  pull_request?: PullRequestPayload;
  /** issue_comment: the issue, with `pull_request` set when the issue is a pull request. */
  issue?: { number?: unknown; pull_request?: unknown };
  merge_group?: { head_ref?: unknown; base_ref?: unknown; head_sha?: unknown };
  workflow_run?: {
    event?: unknown;
    head_branch?: unknown;
    head_sha?: unknown;
    head_repository?: { full_name?: unknown; owner?: { login?: unknown } } | null;
    pull_requests?: { number?: unknown; base?: { ref?: unknown } }[];
  };
  repository?: { default_branch?: unknown; full_name?: unknown };
}

/** A pull request as events carry it and `GET /repos/{owner}/{repo}/pulls/{n}` answers it. */
export interface PullRequestPayload {
  number?: unknown;
  /** Trunk's queue tests a pull request in a draft it opens; a ready pull request is never one. */
  draft?: unknown;
  base?: { ref?: unknown; repo?: { full_name?: unknown } };
  /** A deleted head repository is null. */
  head?: { ref?: unknown; sha?: unknown; repo?: { full_name?: unknown } | null };
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
