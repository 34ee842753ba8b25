#!/usr/bin/env bash
# step NAME COMMAND...: run COMMAND, remember its verdict and time; later steps
# run whatever this one gave. report: print every step's verdict and return 1
# when any failed. Sourced by scripts/test.sh (tested by tests/test_scripts.py).

verdicts=()
failed=0
steps_started=$SECONDS

step() {
  local name=$1 began=$SECONDS status
  shift
  "$@"
  status=$?
  local took=$((SECONDS - began))
  if [ $status -eq 0 ]; then
    verdicts+=("$name ok ($((took / 60)) min $((took % 60)) s)")
  else
    verdicts+=("$name FAILED with status $status ($((took / 60)) min $((took % 60)) s)")
    failed=1
  fi
}

report() {
  local total=$((SECONDS - steps_started))
  echo
  echo "$1, in $((total / 60)) min $((total % 60)) s:"
  local verdict
  for verdict in "${verdicts[@]}"; do echo "  $verdict"; done
  return $failed
}
