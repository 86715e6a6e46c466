// Package migrations embeds the project's Directus schema: a partial
// snapshot (format version 2) of the collections of contract §5, exported
// from Directus 12.4.0 (scripts/directus/build-schema.py rebuilds it).
package migrations

import _ "embed"

// DirectusSchema is migrations/directus-schema.json.
//
//go:embed directus-schema.json
var DirectusSchema []byte
