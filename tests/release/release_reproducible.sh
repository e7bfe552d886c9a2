#!/usr/bin/env bash
# scripts/release.sh run twice gives the same bytes; its archives hold the licences, the corpus
# archive without listings has none, SHA256SUMS checks, and the corpus's VERSION names the
# version and the commit.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The release is made from HEAD whatever the work tree holds; a developer's changes are allowed here.
export OND_RELEASE_ALLOW_DIRTY=1
tag=$(bash "$repo/scripts/release.sh" "$work/a" 2>/dev/null)
bash "$repo/scripts/release.sh" "$work/b" 2>/dev/null >/dev/null
version=$(git -C "$repo" show HEAD:VERSION)
commit=$(git -C "$repo" rev-parse HEAD)
fail() { echo "release test: $*" >&2; exit 1; }
[ "$tag" = "v$version" ] || fail "tag '$tag', want v$version"
files="SHA256SUMS ond-conform-$version.tar.gz ond-corpus-$version.tar.gz ond-corpus-$version-no-listings.tar.gz"
for f in $files; do
  cmp "$work/a/$f" "$work/b/$f" || fail "$f differs between two runs"
done
[ "$(ls "$work/a" | sort | tr '\n' ' ')" = "$(echo $files | tr ' ' '\n' | sort | tr '\n' ' ')" ] ||
  fail "unexpected files: $(ls "$work/a")"
(cd "$work/a" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not check"
src_list=$(tar -tzf "$work/a/ond-conform-$version.tar.gz")  # a listing first: grep -q would cut the pipe
grep -qx "ond-conform-$version/LICENSE" <<<"$src_list" || fail "no LICENSE in the source archive"
grep -qx "ond-conform-$version/corpus/LICENSE" <<<"$src_list" || fail "no corpus/LICENSE in the source archive"
for c in "ond-corpus-$version" "ond-corpus-$version-no-listings"; do
  list=$(tar -tzf "$work/a/$c.tar.gz")
  grep -qx "ond-corpus-$version/LICENSE" <<<"$list" || fail "no LICENSE in $c.tar.gz"
  head=$(tar -xzf "$work/a/$c.tar.gz" -O "ond-corpus-$version/VERSION" | sed -n 1,3p)
  [ "$head" = "$(printf 'format_version 1\ncorpus_version %s\ncommit %s' "$version" "$commit")" ] ||
    fail "$c.tar.gz's VERSION begins '$head'"
  listings=$(grep -c '^ond-corpus-[^/]*/cases/.*\.txt$' <<<"$list" || true)
  case $c in
    *-no-listings) [ "$listings" -eq 0 ] || fail "$listings listings in $c.tar.gz" ;;
    *) [ "$listings" -gt 500 ] || fail "only $listings listings in $c.tar.gz" ;;
  esac
done
# Owner, group and time fixed in every entry.
owners=$(tar -tvzf "$work/a/ond-corpus-$version.tar.gz" | awk '{ print $2 }' | sort -u)
[ "$owners" = "0/0" ] || fail "entries owned by $owners"
echo "release test: $tag reproducible, $(wc -l < "$work/a/SHA256SUMS") archives"
