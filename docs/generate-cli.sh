#!/usr/bin/env bash
# Regenerates the command reference in docs/cli.md (between the GENERATED markers) from the CLI's own usage texts:
# runs `bin/psdkit <command> --help` for every command and subcommand that the help texts list.
# Usage: docs/generate-cli.sh   (builds the jar through bin/psdkit if needed; takes about a minute)
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
DOC="$ROOT/docs/cli.md"
export PSDKIT_JAVA_OPTS="${PSDKIT_JAVA_OPTS:--Xmx512m}"
OUT="$(mktemp)"
trap 'rm -f "$OUT" "$OUT.new"' EXIT

# the subcommand names listed under "Commands:" in a usage text (picocli indents them by two spaces)
subcommands() {
  awk '/^Commands:/ {on = 1; next} on && /^  [a-z0-9][a-z0-9-]* / {print $1}' | grep -vx help || true
}

emit() { # emit "cmd words..." at heading level
  local level="$1"; shift
  local usage
  usage="$("$ROOT/bin/psdkit" "$@" --help 2>&1)"
  printf '%s `psdkit %s`\n\n```\n%s\n```\n\n' "$level" "$*" "$usage" >>"$OUT"
  local sub
  for sub in $(printf '%s\n' "$usage" | subcommands); do
    emit "$level#" "$@" "$sub"
  done
}

# build once, quietly: the CLI jar, and the Spark submit jar that `bench spark` runs in (bin/psdkit-spark), so that
# no build message lands in a usage text
"$ROOT/bin/psdkit" --help >/dev/null
"$ROOT/bin/psdkit" bench spark --help >/dev/null
printf '### `psdkit`\n\n```\n%s\n```\n\n' "$("$ROOT/bin/psdkit" --help 2>&1)" >"$OUT"
for cmd in $("$ROOT/bin/psdkit" --help 2>&1 | subcommands); do
  emit "###" "$cmd"
done

awk -v gen="$OUT" '
  /^<!-- BEGIN GENERATED/ {print; while ((getline line < gen) > 0) print line; skip = 1; next}
  /^<!-- END GENERATED/ {skip = 0}
  !skip {print}
' "$DOC" >"$OUT.new"
cat "$OUT.new" >"$DOC" # keeps the mode of cli.md (mktemp files are 0600)
echo "docs/cli.md: $(grep -c '^#\{3,\} `psdkit' "$DOC") usage texts" >&2
