#!/usr/bin/env bash
# Tags a release: the semantic version tag vX.Y.Z on HEAD, and the moving major tag vX moved to it.
#
#   scripts/release.sh 1.2.3          # checks, then creates v1.2.3 and moves v1 locally
#   scripts/release.sh 1.2.3 --push   # ... and pushes both tags to origin
#
# Before running it: on main, with the release commit made (CHANGELOG.md has a "## 1.2.3" entry
# with the date, package.json has the version, dist/ is rebuilt and committed).
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-}"
push="${2:-}"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "usage: scripts/release.sh X.Y.Z [--push]" >&2
  exit 2
fi
if [ -n "$push" ] && [ "$push" != "--push" ]; then
  echo "unknown option: $push" >&2
  exit 2
fi
tag="v$version"
major="v${version%%.*}"

fail() {
  echo "release: $*" >&2
  exit 1
}

[ -z "$(git status --porcelain)" ] || fail "the working tree has changes: commit or stash them first"
[ "$(git rev-parse --abbrev-ref HEAD)" = main ] || fail "releases are tagged on main"
git rev-parse -q --verify "refs/tags/$tag" >/dev/null && fail "$tag already exists"
grep -Eq "^## \[?$version\]? - [0-9]{4}-[0-9]{2}-[0-9]{2}" CHANGELOG.md ||
  fail "CHANGELOG.md has no dated entry \"## $version - YYYY-MM-DD\""
[ "$(node -p "require('./package.json').version")" = "$version" ] ||
  fail "package.json's version is not $version (npm version $version --no-git-tag-version)"

# The major tag only moves forward: users of @v1 must never be taken back to older code.
if git rev-parse -q --verify "refs/tags/$major" >/dev/null; then
  git merge-base --is-ancestor "$major^{commit}" HEAD ||
    fail "$major points at a commit that is not behind HEAD: tag from a commit that follows it"
fi
newest="$(git tag -l "$major.*" | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1 || true)"
if [ -n "$newest" ] && [ "$(printf '%s\n%s\n' "$newest" "$tag" | sort -V | tail -n 1)" != "$tag" ]; then
  fail "$tag is not newer than $newest, the newest $major release"
fi

echo "Checking that dist/ is the bundle of src/ ..."
npm run -s bundle >/dev/null
[ -z "$(git status --porcelain -- dist)" ] || fail "dist/ is stale: commit the output of npm run bundle"

git tag -a "$tag" -m "$tag"
# The major tag follows the newest release of its major version: users of @v1 get it at once.
git tag -f -a "$major" -m "$major: $tag" "$tag^{commit}"
echo "Tagged $tag and moved $major to $(git rev-parse --short "$tag^{commit}")."

if [ "$push" = "--push" ]; then
  git push origin "$tag"
  git push --force origin "$major"
  echo "Pushed. Now publish the release of $tag on GitHub (notes from CHANGELOG.md)."
else
  echo "Push with:"
  echo "  git push origin $tag"
  echo "  git push --force origin $major"
fi
