/**
 * Issue 24 §4: a pattern whose directory walk fails leaves the failures unknown. A 0700 folder a
 * container left cannot be made unreadable to root (who runs these tests), so the walk's EACCES is
 * given by a mock of @actions/glob, exactly as Node raises it from readdir.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('@actions/glob', () => ({
  create: () =>
    Promise.resolve({
      glob: () =>
        Promise.reject(
          Object.assign(new Error("EACCES: permission denied, scandir '/work/ws/reports/cache'"), {
            code: 'EACCES',
            errno: -13,
            syscall: 'scandir',
            path: '/work/ws/reports/cache',
          }),
        ),
    }),
}));

const { findReportFiles } = await import('../../src/test-results/find-report-files.js');

describe('findReportFiles, a walk that fails', () => {
  it('names the pattern as unread, with the error’s code and the workspace path', async () => {
    const found = await findReportFiles(['reports/**'], '/work/ws');

    expect(found.files).toEqual([]);
    expect(found.unread).toEqual([
      {
        file: 'test-results pattern reports/**',
        why: 'the folders it names could not be searched (EACCES at reports/cache)',
        partial: false,
      },
    ]);
    expect(found.warnings).toEqual([
      'test-results: the pattern reports/**: the folders it names could not be searched (EACCES at reports/cache): its failures are unknown, not zero',
    ]);
  });
});
