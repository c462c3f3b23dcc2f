#!/usr/bin/env bash
# The same reads as the action, scripted the way a user would without it: curl and jq, one request
# after another. Every FLAKY page, every BROKEN page (each page token comes from the previous page),
# then the merge queue. Prints one line: flaky=N broken=N queue-state=S queue-depth=N
#
#   TRUNK_API_URL=https://api.trunk.io/v1 TRUNK_API_TOKEN=... TRUNK_ORG=acme \
#   REPOSITORY=acme/widgets TARGET_BRANCH=main bash bench/sequential-curl.sh
#
# Optional: REPO_HOST (github.com), PAGE_SIZE (100).
set -euo pipefail
shopt -s inherit_errexit

for tool in curl jq; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "sequential-curl.sh needs $tool (Debian/Ubuntu: apt-get install -y curl jq)" >&2
    exit 127
  fi
done

: "${TRUNK_API_URL:?set TRUNK_API_URL, e.g. https://api.trunk.io/v1}"
: "${TRUNK_API_TOKEN:?set TRUNK_API_TOKEN}"
: "${TRUNK_ORG:?set TRUNK_ORG (the organization URL slug)}"
: "${REPOSITORY:?set REPOSITORY as owner/name}"
: "${TARGET_BRANCH:?set TARGET_BRANCH}"
REPO_HOST="${REPO_HOST:-github.com}"
PAGE_SIZE="${PAGE_SIZE:-100}"
OWNER="${REPOSITORY%%/*}"
NAME="${REPOSITORY#*/}"

post() {
  curl --silent --show-error --fail \
    -X POST "$TRUNK_API_URL$1" \
    -H 'content-type: application/json' \
    -H 'accept: application/json' \
    -H "x-api-token: $TRUNK_API_TOKEN" \
    --data "$2"
}

# JSON-encoded once; per page only the token changes, so each page costs one curl and one jq.
REPO_JSON=$(jq -cn --arg host "$REPO_HOST" --arg owner "$OWNER" --arg name "$NAME" \
  '{host: $host, owner: $owner, name: $name}')
ORG_JSON=$(jq -cn --arg org "$TRUNK_ORG" '$org')
BRANCH_JSON=$(jq -cn --arg branch "$TARGET_BRANCH" '$branch')

# Counts the tests of one status, following next_page_token until it is empty. Page tokens are
# opaque URL-safe strings, so they go into the body as they are.
count_tests() {
  local status="$1" token="" total=0 count body page
  while :; do
    body=$(printf '{"repo":%s,"org_url_slug":%s,"status":"%s","page_query":{"page_size":%d,"page_token":"%s"}}' \
      "$REPO_JSON" "$ORG_JSON" "$status" "$PAGE_SIZE" "$token")
    page=$(post /flaky-tests/list-unhealthy-tests "$body")
    read -r count token <<<"$(jq -r '"\(.tests | length) \(.page.next_page_token // "")"' <<<"$page")"
    total=$((total + count))
    [ -n "$token" ] || break
  done
  echo "$total"
}

flaky=$(count_tests FLAKY)
broken=$(count_tests BROKEN)
queue=$(post /getQueue "{\"repo\":$REPO_JSON,\"targetBranch\":$BRANCH_JSON}")
read -r state depth <<<"$(jq -r '"\(.state | ascii_downcase) \(.enqueuedPullRequests | length)"' <<<"$queue")"

echo "flaky=$flaky broken=$broken queue-state=$state queue-depth=$depth"
