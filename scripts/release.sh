#!/usr/bin/env bash
# Makes a release's files from the commit checked out (HEAD), byte for byte the same on every run:
#   scripts/release.sh [OUTDIR]        (default: release/)
# Prints the tag name (v + VERSION) and writes into OUTDIR:
#   ond-conform-VERSION.tar.gz              the source (git archive of HEAD)
#   ond-corpus-VERSION.tar.gz               the corpus as `ond corpus export` writes it
#   ond-corpus-VERSION-no-listings.tar.gz   the same without the cases' listings (.txt)
#   SHA256SUMS                              the three archives' SHA-256 (`sha256sum -c SHA256SUMS`)
# The corpus is exported from the source archive itself by corpus/tools/export.py (no build
# needed), so its VERSION names the commit. Every archive has fixed times (the commit's),
# owner and group 0, sorted names, and gzip without a name or time. The work tree must be clean
# (OND_RELEASE_ALLOW_DIRTY=1 allows changes, which are not in the release in any case).
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
out=${1:-$repo/release}
cd "$repo"
if [ -n "$(git status --porcelain)" ] && [ "${OND_RELEASE_ALLOW_DIRTY:-0}" != 1 ]; then
  echo "release: the work tree has changes; a release is made from a clean checkout" >&2
  exit 1
fi
commit=$(git rev-parse HEAD)
version=$(git show "$commit:VERSION")
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "release: VERSION at $commit is not MAJOR.MINOR.PATCH" >&2; exit 1; }
epoch=$(git log -1 --format=%ct "$commit")
tag=v$version

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out/ond-conform-$version.tar.gz" "$out/ond-corpus-$version.tar.gz" \
  "$out/ond-corpus-$version-no-listings.tar.gz" "$out/SHA256SUMS"

# git archive writes its tar deterministically (mtime: the commit's; export-subst fills in
# cmake/source-commit.txt).
src_name=ond-conform-$version
git archive --format=tar --prefix="$src_name/" "$commit" > "$work/src.tar"
gzip -n < "$work/src.tar" > "$out/$src_name.tar.gz"
tar -xf "$work/src.tar" -C "$work"

deterministic_tar() {  # DIR NAME -> a gzipped tar of DIR/NAME on stdout
  tar --sort=name --format=pax --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --mode=u+rw,go=rX,a-s \
    -C "$1" -cf - "$2" | gzip -n
}
corpus_name=ond-corpus-$version
for variant in with-listings no-listings; do
  flag=() suffix=
  [ "$variant" = no-listings ] && flag=(--no-listings) suffix=-no-listings
  dir=$work/$variant
  mkdir -p "$dir"
  python3 "$work/$src_name/corpus/tools/export.py" --corpus "$work/$src_name/corpus" "${flag[@]}" \
    "$dir/$corpus_name" >/dev/null
  deterministic_tar "$dir" "$corpus_name" > "$out/$corpus_name$suffix.tar.gz"
done
(cd "$out" && sha256sum "$src_name.tar.gz" "$corpus_name.tar.gz" "$corpus_name-no-listings.tar.gz" > SHA256SUMS)
echo "$tag"
echo "release $tag of $commit in $out:" >&2
sed 's/^/  /' "$out/SHA256SUMS" >&2
