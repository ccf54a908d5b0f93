#!/usr/bin/env bash
# make install [PREFIX=/usr/local] [DESTDIR=…]: release builds of todo and todo-server, man pages
# generated from their argument-parser definitions, and bash, zsh and fish completions.
# make uninstall removes exactly what the install wrote (listed in lib/offline-todo/install-manifest).
# CONFIGURATION=debug installs the debug build instead; INSTALL_FROM=DIR installs binaries built already.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=install
if [ "${1:-}" = "--uninstall" ]; then mode=uninstall; shift; fi
prefix="${1:-/usr/local}"
dest="${DESTDIR:-}$prefix"
lib="$dest/lib/offline-todo"
manifest="$lib/install-manifest"

if [ "$mode" = uninstall ]; then
  if [ ! -f "$manifest" ]; then echo "OfflineTodo is not installed under $prefix"; exit 0; fi
  while IFS= read -r path; do rm -rf "${dest:?}/$path"; done <"$manifest"
  rm -f "$manifest"
  rmdir "$lib" 2>/dev/null || true
  echo "Removed OfflineTodo from $prefix"
  exit 0
fi

config="${CONFIGURATION:-release}"
if [ "$config" = release ]; then scratch=.build-release; else scratch=.build; fi
if [ -n "${INSTALL_FROM:-}" ]; then
  # Binaries built already (the tests install the ones they run, without a second SwiftPM on .build).
  bin="$INSTALL_FROM"
else
  build=(swift build -c "$config" --scratch-path "$scratch")
  "${build[@]}" --product todo
  "${build[@]}" --product todo-server
  bin=$("${build[@]}" --show-bin-path)
fi
# The manual generator ships with swift-argument-parser; built once into a scratch folder of its own,
# in debug: it runs once per install, and a debug build of it takes half the time (the tests run it).
parser="$scratch/checkouts/swift-argument-parser"
[ -d "$parser" ] || parser=.build/checkouts/swift-argument-parser
tools=(swift build -c debug --package-path "$parser" --scratch-path .build-tools --product generate-manual)
"${tools[@]}" >/dev/null
generate_manual="$("${tools[@]}" --show-bin-path)/generate-manual"

written=()
put() { written+=("${1#"$dest"/}"); }
mkdir -p "$lib" "$dest/bin" "$dest/share/man/man1" "$dest/share/bash-completion/completions" \
  "$dest/share/zsh/site-functions" "$dest/share/fish/vendor_completions.d"
for program in todo todo-server; do
  install -m 0755 "$bin/$program" "$lib/$program"; put "$lib/$program"
  # Through a link, so each binary finds its resource bundles beside its real path.
  ln -sfn "../lib/offline-todo/$program" "$dest/bin/$program"; put "$dest/bin/$program"
  "$lib/$program" --generate-completion-script bash >"$dest/share/bash-completion/completions/$program"
  put "$dest/share/bash-completion/completions/$program"
  "$lib/$program" --generate-completion-script zsh >"$dest/share/zsh/site-functions/_$program"
  put "$dest/share/zsh/site-functions/_$program"
  "$lib/$program" --generate-completion-script fish >"$dest/share/fish/vendor_completions.d/$program.fish"
  put "$dest/share/fish/vendor_completions.d/$program.fish"
done
for bundle in "$bin"/*.resources; do
  [ -e "$bundle" ] || continue
  rm -rf "$lib/$(basename "$bundle")"
  cp -R "$bundle" "$lib/"; put "$lib/$(basename "$bundle")"
done
pages=$(mktemp -d)
for program in todo todo-server; do "$generate_manual" "$lib/$program" --multi-page --output-directory "$pages"; done
# generate-manual leaves blank lines that mdoc warns about; they carry nothing.
for page in "$pages"/*.1; do
  sed -i '/^$/d' "$page"
  install -m 0644 "$page" "$dest/share/man/man1/"; put "$dest/share/man/man1/$(basename "$page")"
done
rm -rf "$pages"
printf '%s\n' "${written[@]}" >"$manifest"
echo "Installed todo and todo-server under $prefix ($(ls "$dest/share/man/man1" | wc -l) man pages; completions for bash, zsh, fish)"
