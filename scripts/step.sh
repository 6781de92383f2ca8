# Sourced by .ci/run and scripts/test-all.sh: `step CMD...` runs CMD and then says
# how long it took, after $STEP_LABEL, so a slow run shows where its time went.
step() {
    local start=$SECONDS
    "$@"
    echo "${STEP_LABEL:-step}: $((SECONDS - start)) s: $*" >&2
}
