#!/usr/bin/env bash
# Runs every suite (the executable is built first), then prints one total line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
BUN=node_modules/.bin/bun
mkdir -p test-results
passed=0
failed=0
status=0
# CI shows only the end of this script's output, so the failures are named again there.
failures=""

suite() {
  local name=$1
  shift
  echo "== $name"
  local log="test-results/$name.log"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local p f
  p=$(grep -Eo '^ *[0-9]+ pass' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
  f=$(grep -Eo '^ *[0-9]+ fail' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$rc" -ne 0 ]; then
    status=1
    [ "$f" -eq 0 ] && failed=$((failed + 1))
    failures+="== $name exited with $rc; from $log:"$'\n'
    failures+="$(grep -E '^\(fail\)|^# Unhandled error|^error:|error TS[0-9]+|[0-9]+ errors?$|^ *[0-9]+ fail' "$log" | head -30)"$'\n'
  fi
}

suite typecheck node_modules/.bin/tsc --noEmit -p .
suite build $BUN scripts/build.ts
# The Raspberry Pi release, for test/smoke/arm64.test.ts (qemu-user); Bun fetches its arm64 runtime from npm.
suite build-arm64 $BUN scripts/build.ts --target linux-arm64
# bunfig.toml's [test] timeout does not reach the tests with this Bun, so each run names it (slow tests still give
# their own, larger, budget).
TIMEOUT="--timeout 20000"
suite unit-integration $BUN test $TIMEOUT test/unit test/integration
suite component $BUN test $TIMEOUT --preload ./test/helpers/happy-dom.ts test/component
suite smoke $BUN test $TIMEOUT test/smoke
suite e2e $BUN test $TIMEOUT test/e2e

echo
[ -n "$failures" ] && printf '%s' "$failures"
echo "$passed passed, $failed failed"
exit $status
