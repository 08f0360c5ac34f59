#!/usr/bin/env bash
# previous-results.sh ARTIFACT DEST: download ARTIFACT of the most recent *previous* successful run of this workflow
# on this branch (a pull request's base branch) into DEST, for the regression gate's baseline.
#
# actions/download-artifact without a run id only sees the current run, so the baseline has to be looked up:
# `gh run list` / `gh run download` with the job's token (the workflow needs `permissions: actions: read`).
# Prints the run id it used on stdout; nothing (exit 0) when there is no such run or artifact yet, so a first
# run is not a failure. Environment: GH_TOKEN, GITHUB_REPOSITORY, GITHUB_RUN_ID, GITHUB_WORKFLOW_REF,
# GITHUB_REF_NAME, GITHUB_BASE_REF (the variables GitHub sets in every job).
set -uo pipefail
artifact=${1:?artifact name}
dest=${2:?destination folder}
workflow=${GITHUB_WORKFLOW_REF%@*}   # owner/repo/.github/workflows/conformance.yml@refs/... -> file name
workflow=${workflow##*/}
branch=${GITHUB_BASE_REF:-${GITHUB_REF_NAME:-}}
if [ -z "$workflow" ] || [ -z "$branch" ]; then
  echo "previous-results: no workflow/branch in the environment: no baseline" >&2
  exit 0
fi
ids=$(gh run list --repo "$GITHUB_REPOSITORY" --workflow "$workflow" --branch "$branch" --status success \
        --limit 20 --json databaseId --jq '.[].databaseId') || {
  echo "previous-results: gh run list failed (token without actions: read?): no baseline" >&2
  exit 0
}
for id in $ids; do
  [ "$id" = "${GITHUB_RUN_ID:-}" ] && continue   # never this run itself
  rm -rf "$dest"
  if gh run download "$id" --repo "$GITHUB_REPOSITORY" --name "$artifact" --dir "$dest" >/dev/null 2>&1; then
    echo "previous-results: baseline $artifact from run $id ($workflow on $branch)" >&2
    echo "$id"
    exit 0
  fi
done
echo "previous-results: no previous successful run of $workflow on $branch has $artifact: no baseline" >&2
exit 0
