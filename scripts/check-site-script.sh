#!/usr/bin/env bash
# The album site's script (Sources/TesseraAlbum/Resources/script/, private.js and map.js), as the test command checks it:
# TypeScript's checker over its JavaScript and JSDoc types (Debian's node-typescript), and eslint
# (Debian's, scripts/site-script/eslintrc.yaml). Fails on any error either reports.
# The layout engine's files (layout-*.js) and the page's are two scripts joined apart (Assets.swift),
# each checked as one program.
set -euo pipefail
cd "$(dirname "$0")/.."
# (with what eslint only recommends: js-yaml reads its configuration, the others format its report)
scripts/install-deps.sh node-typescript eslint node-js-yaml node-chalk node-strip-ansi node-text-table >&2
dir=Sources/TesseraAlbum/Resources/script
check=(tsc --allowJs --checkJs --noEmit --target es2020 --lib es2020,dom,dom.iterable)
"${check[@]}" "$dir"/layout-*.js
"${check[@]}" $(ls "$dir"/*.js | grep -v /layout-)
# What opens a private album's page is a script of its own (Resources/private.js).
"${check[@]}" "$dir"/../private.js
# Debian's eslint finds its plugins and parsers under /usr/share/nodejs.
# The map's page script (Resources/map.js) is linted too; Leaflet, a global it takes from Debian's
# package, has no types here to check it against.
NODE_PATH=/usr/share/nodejs eslint --no-eslintrc -c scripts/site-script/eslintrc.yaml "$dir"/*.js "$dir"/../map.js "$dir"/../private.js
echo "check-site-script: $(ls "$dir"/*.js | wc -l) files and private.js type-checked and linted, and map.js linted"
