#!/bin/bash
# Run by gozie's shell example: reports its arguments (the workflow's user
# and examples root) and the GREETING the action's <env-var> sets, one
# key=value line each, for <capture-output/>.
set -eu
echo "argc=$#"
echo "user=${1-}"
echo "root=${2-}"
echo "greeting=${GREETING-}"
