#!/usr/bin/env bash
# Refresh the translation catalogs after changing messages marked with _():
# extract them (xgettext), merge them into each language's .po (msgmerge),
# then compile the .mo files the package loads (msgfmt). Needs GNU gettext
# (Debian package gettext). Translate new entries in the .po, then run again.
set -euo pipefail
cd "$(dirname "$0")/.."
pot=$(mktemp)
xgettext --language=Python --keyword=_ --keyword=N_ --from-code=UTF-8 \
  --no-wrap --sort-output --package-name=zerosum -o "$pot" $(find src/zerosum -name '*.py' | sort)
for po in src/zerosum/locale/*/LC_MESSAGES/zerosum.po; do
  msgmerge --quiet --no-wrap --sort-output --no-fuzzy-matching --update --backup=none "$po" "$pot"
  msgattrib --no-obsolete --no-wrap --output-file="$po" "$po"
  msgfmt --check --output-file="${po%.po}.mo" "$po"
done
rm -f "$pot"
