/**
 * The POSIX shell program behind the agent's file tools when the hook is sandboxed: it runs inside
 * the sandbox session (`sh -c SCRIPT hookline-files MODE ROOT PATH …`), so every file is seen — and
 * every write is allowed or refused — as the sandbox sees it. Beyond `sh` it needs `readlink -f`,
 * `dirname`, `find`, `head -c`, `cat` and `mkdir -p`: busybox, GNU coreutils and Alpine all have them.
 *
 * ROOT is the working directory as a physical path (`pwd -P`) and PATH an absolute path the host has
 * already normalised and checked to lie inside ROOT lexically; the program checks the physical path
 * (symbolic links resolved) the same way the host's tools do. Its refusals are one word on stderr and
 * exit status 3, for the host to phrase: `outside-link`, `missing`, `kind:<type>`.
 *
 * Modes:
 * - `read MAX`: stdout is the file's size in bytes, a newline, and its first MAX bytes.
 * - `write`: stdin becomes the file's content (parents are made); a failure of `mkdir` or of the
 *   redirection (a read-only mount) exits 4 with the system's message on stderr.
 * - `list NONCE MAX_ENTRIES` and `dump NONCE MAX_ENTRIES FILE_BYTES`: the regular files under PATH
 *   (a file, or a directory walked without entering `.git`, `node_modules` or linked directories;
 *   links to files are listed when their target is inside ROOT), each as a record
 *   `\0NONCE\0relative path\0` plus, for `dump`, the first FILE_BYTES bytes of its content. A record
 *   `\0NONCE\0\0` says the walk stopped at MAX_ENTRIES. The random NONCE frames records without
 *   having to trust file contents or names.
 */
// A plain template literal: the shell's own `${…}` and backslashes are escaped.
export const SANDBOX_FILE_SCRIPT = `
# No pathname expansion: unquoted words (the fields of ls) must stay as they are.
set -f
mode=$1 root=$2 path=$3
fail() { printf '%s\\n' "$1" >&2; exit 3; }
inside() { [ "$root" = / ] && return 0; case $1 in "$root"|"$root"/*) return 0;; esac; return 1; }
kind() {
  if [ -d "$1" ]; then fail kind:directory; elif [ -p "$1" ]; then fail kind:fifo; elif [ -S "$1" ]; then fail kind:socket
  elif [ -c "$1" ]; then fail kind:character-device; elif [ -b "$1" ]; then fail kind:block-device; else fail kind:other; fi
}
# Sets target to the physical path for $path; $1 is read or write.
confine() {
  if [ -e "$path" ]; then
    target=$(readlink -f -- "$path") || exit 4
    inside "$target" || fail outside-link
    return 0
  fi
  if [ -L "$path" ]; then
    [ "$1" = write ] && fail outside-link
    link=$(readlink -f -- "$path" 2>/dev/null) && [ -n "$link" ] && inside "$link" && fail missing
    fail outside-link
  fi
  ancestor=$path
  while :; do
    ancestor=$(dirname -- "$ancestor")
    if [ -e "$ancestor" ]; then
      real=$(readlink -f -- "$ancestor") || exit 4
      inside "$real" || fail outside-link
      [ "$1" = write ] || fail missing
      target=\${real%/}/\${path#"\${ancestor%/}"/}
      return 0
    fi
    [ -L "$ancestor" ] && fail outside-link
    [ "$ancestor" = / ] && fail missing
  done
}
relative() { if [ "$1" = "$root" ]; then printf .; else printf '%s' "\${1#"\${root%/}"/}"; fi; }
record() {
  printf '\\000%s\\000%s\\000' "$nonce" "$1"
  [ "$mode" = dump ] && head -c "$bytes" < "$2"
  return 0
}
case $mode in
read)
  max=$4
  confine read
  [ -f "$target" ] || kind "$target"
  set -- $(ls -lnd -- "$target")
  printf '%s\\n' "$5"
  head -c "$max" < "$target" ;;
write)
  confine write
  mkdir -p -- "$(dirname -- "$target")" || exit 4
  parent=$(cd -P -- "$(dirname -- "$target")" && pwd -P) || exit 4
  inside "$parent" || fail outside-link
  if [ -L "$target" ]; then fail outside-link; elif [ -e "$target" ] && [ ! -f "$target" ]; then kind "$target"; fi
  cat > "$target" || exit 4 ;;
list|dump)
  nonce=$4 entries=$5 bytes=$6
  confine read
  if [ -f "$target" ]; then record "$(relative "$target")" "$target"; exit 0; fi
  [ -d "$target" ] || exit 0
  cd -- "$target" || exit 4
  prefix=$(relative "$target")
  count=0
  find . \\( -type d \\( -name .git -o -name node_modules \\) ! -name . -prune \\) -o \\( -type f -print \\) -o \\( -type l -print \\) |
  while IFS= read -r entry; do
    count=$((count + 1))
    if [ "$count" -gt "$entries" ]; then printf '\\000%s\\000\\000' "$nonce"; break; fi
    name=\${entry#./}
    [ "$prefix" = . ] || name=$prefix/$name
    if [ -L "$entry" ]; then
      linked=$(readlink -f -- "$entry" 2>/dev/null) || continue
      inside "$linked" && [ -f "$linked" ] && record "$name" "$linked"
    elif [ -f "$entry" ]; then
      record "$name" "$entry"
    fi
  done
  # The loop's status is its last test's (a skipped link): the walk itself succeeded.
  exit 0 ;;
*) echo "unknown mode $mode" >&2; exit 4 ;;
esac
`;
