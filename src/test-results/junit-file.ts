/**
 * A test's file when the JUnit report has no `file` attribute, from what the runner put in
 * `classname`. Conservative on purpose: a wrong file would match the wrong Trunk test, a missing one
 * only falls back to name and class.
 * - A classname that is a path (vitest, Playwright, some jest-junit setups) is the file.
 * - pytest (its suite is named "pytest") writes the module's dotted path, then any class names:
 *   `tests.unit.test_api.TestLogin` → `tests/unit/test_api.py`, only when the module part is named as
 *   pytest collects by default (`test_*` or `*_test`). This is a guess: a package with dots in a folder
 *   name or a rootdir other than the repository's would make it wrong, so nothing else is guessed.
 * - Java, Kotlin, Go and .NET class names (`com.acme.FooTest`, `github.com/acme/pkg`) give no file: the
 *   source folder is not in the report.
 */

const SOURCE_FILE =
  /\.(?:[cm]?[jt]sx?|py|rb|php|go|java|kt|kts|scala|groovy|cs|fs|rs|swift|dart|ex|exs|erl|feature)$/;

export function fileFromClassname(
  classname: string | undefined,
  pytest: boolean,
): string | undefined {
  if (classname === undefined || classname === '') return undefined;
  if (pytest) return pytestModuleFile(classname);
  if (/\s/.test(classname)) return undefined;
  // Case-sensitive: `com.acme.Go` is a class (upper case), `pkg/x_test.go` a file.
  return SOURCE_FILE.test(classname) ? classname : undefined;
}

function pytestModuleFile(classname: string): string | undefined {
  if (classname.includes('/') || classname.endsWith('.py')) return classname;
  const parts = classname.split('.');
  // Class names (TestLogin, and classes nested in it) follow the module; modules are lower case.
  while (parts.length > 0 && /^[A-Z]/.test(parts[parts.length - 1] ?? '')) parts.pop();
  const module = parts[parts.length - 1];
  if (module === undefined || !/^test_|_test$/.test(module)) return undefined;
  if (!parts.every((part) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(part))) return undefined;
  return `${parts.join('/')}.py`;
}
