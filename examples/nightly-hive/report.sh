#!/bin/bash
# Counts the rows the pipeline published for the day, with the cluster's
# `hadoop fs`. With <capture-output/>, stdout (Java properties) becomes
# ${wf:actionData('report')}.
set -euo pipefail
dir="$1"
hadoop fs -test -e "$dir/_SUCCESS"
rows=$(hadoop fs -cat "$dir/000000_0" | wc -l)
echo "day_dir=$dir"
echo "rows=$rows"
