# Turns Maven's test output (./aclnn4j test keeps all of it in target/test-logs/maven.log) into what a
# person reads: one line per test class as it finishes, the failures with their messages, each
# stage's counts, and a closing "N passed, N failed, N skipped" line; it exits 1 when a test failed
# or none ran.
#   awk -f tools/test-report.awk < maven.log
BEGIN {
  stage["default-test"] = "The suite (one JVM)"
  stage["soak"] = "The soak (a JVM with native memory tracking)"
  stage["fuzz"] = "The fuzz targets (a JVM each, two at a time: the committed corpus, then fuzzing)"
  inTests = 0; inResults = 0
}

function count(line, key,    m) { # the number after "key: " in a surefire summary line
  return match(line, key ": [0-9]+") ? substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2) + 0 : 0
}

/--- maven-surefire-plugin:[^ ]+:test \(/ {
  id = $0; sub(/.*:test \(/, "", id); sub(/\).*/, "", id)
  printf "\n%s\n", (id in stage ? stage[id] : id)
  fflush(); next
}

/ T E S T S$/ { inTests = 1; next }

/Tests run: .* -- in / { # a class has finished
  name = $0; sub(/.* -- in /, "", name); sub(/^io\.github\.aclnn4j\./, "", name)
  seconds = $0; sub(/.*Time elapsed: /, "", seconds); sub(/ s.*/, "", seconds)
  failed = count($0, "Failures") + count($0, "Errors")
  printf "  %-58s %6d tests %8.1f s%s\n", name, count($0, "Tests run"), seconds, (failed ? "   FAILED: " failed : "")
  fflush(); next
}

/\[(INFO|WARNING|ERROR)\] Results:/ { inTests = 0; inResults = 1; next }

inResults && /Tests run: [0-9]+, Failures:/ { # the stage's totals
  run = count($0, "Tests run"); bad = count($0, "Failures") + count($0, "Errors"); skip = count($0, "Skipped")
  total += run; failures += bad; skipped += skip
  printf "  %d tests: %d passed, %d failed, %d skipped\n", run, run - bad - skip, bad, skip
  inResults = 0; fflush(); next
}

inResults && /^\[ERROR\] *$/ { next }
inResults && /^\[(ERROR|WARNING)\]/ { sub(/^\[(ERROR|WARNING)\] /, "  "); print; fflush(); next }
inResults && /^[^\[]/ && !/^[ \t]+at / { print "    " $0; fflush(); next } # a message's further lines

inTests { next } # while tests run, their own output is in the log

/^\[ERROR\]/ { sub(/^\[ERROR\] ?/, ""); if ($0 != "") print "  " $0; fflush() } # the build's own failures

END { # exits 1 when a test failed or none ran
  printf "\n%d passed, %d failed, %d skipped\n", total - failures - skipped, failures, skipped
  exit (failures > 0 || total == 0)
}
