#!/usr/bin/env bash
# Download/build everything infra/up.sh runs, into $REPO/.cache. Only Maven Central and the
# Go module proxy are used (via ~/.m2 and the Go module/build caches). Each part is skipped
# when its output exists and was made from the same inputs, so a warm run takes ~0 s.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Maven's output goes to a file and is shown only when it fails (quiet mode still prints
# ANSI resets on this Maven).
mvn_q() {
  local out="$CACHE/.mvn-$$.log"
  # Run from .cache so a pom.xml in the caller's directory is never picked up.
  if ! (cd "$CACHE" && mvn -B -q -Dstyle.color=never "$@") >"$out" 2>&1; then
    cat "$out" >&2
    rm -f "$out"
    die "mvn $* failed"
  fi
  rm -f "$out"
}
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

command -v java >/dev/null || die "java (JDK 17) not found"
command -v javac >/dev/null || die "javac (JDK 17) not found"
command -v mvn >/dev/null || die "mvn not found"
command -v go >/dev/null || die "go not found"

mkdir -p "$CACHE"

fetch_kafka() {
  local stamp="$CACHE/kafka/.stamp" want
  want="kafka=$KAFKA_VERSION $(inputs_hash "$INFRA_DIR/kafka/pom.xml" "$INFRA_DIR/kafka/KafkaReady.java")"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$KAFKA_PROBE_DIR/KafkaReady.class" ]; then
    log "kafka $KAFKA_VERSION: cached"
    return
  fi
  log "kafka $KAFKA_VERSION: resolving classpath from Maven Central"
  rm -rf "$KAFKA_LIBS" "$KAFKA_PROBE_DIR" "$stamp"
  mkdir -p "$KAFKA_LIBS" "$KAFKA_PROBE_DIR"
  mvn_q -f "$INFRA_DIR/kafka/pom.xml" "$DEP_PLUGIN:copy-dependencies" \
    -Dkafka.version="$KAFKA_VERSION" -DincludeScope=runtime -DoutputDirectory="$KAFKA_LIBS"
  [ -f "$KAFKA_LIBS/kafka_2.13-$KAFKA_VERSION.jar" ] || die "kafka_2.13-$KAFKA_VERSION.jar missing after mvn"
  javac -nowarn -d "$KAFKA_PROBE_DIR" -cp "$KAFKA_LIBS/*" "$INFRA_DIR/kafka/KafkaReady.java"
  echo "$want" >"$stamp"
  log "kafka $KAFKA_VERSION: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars in ${KAFKA_LIBS#"$REPO"/}"
}

fetch_apicurio() {
  local stamp="$APICURIO_HOME/.stamp" dl="$CACHE/apicurio/dl"
  local tgz="apicurio-registry-app-$APICURIO_VERSION-all.tar.gz"
  if [ -f "$stamp" ]; then
    log "apicurio $APICURIO_VERSION: cached"
    return
  fi
  log "apicurio $APICURIO_VERSION: downloading $tgz from Maven Central"
  rm -rf "$APICURIO_HOME" "$dl"
  mkdir -p "$APICURIO_HOME" "$dl"
  mvn_q "$DEP_PLUGIN:copy" -Dartifact="io.apicurio:apicurio-registry-app:$APICURIO_VERSION:tar.gz:all" \
    -DoutputDirectory="$dl"
  tar -xzf "$dl/$tgz" -C "$APICURIO_HOME"
  rm -rf "$dl"   # ~/.m2 keeps the tarball
  if [ ! -f "$APICURIO_HOME/quarkus-run.jar" ] && ! compgen -G "$APICURIO_HOME/*-runner.jar" >/dev/null; then
    die "no quarkus-run.jar or *-runner.jar in $tgz"
  fi
  date -u +%FT%TZ >"$stamp"
}

# FerretDB 1.24.2 on SQLite looks documents up by `_ferretdb_sjson->'$._id'`, but the unique index it
# creates is on `_ferretdb_sjson->"_id"`. SQLite uses an expression index only for the same expression,
# so every lookup by _id scanned the whole table (EXPLAIN QUERY PLAN: SCAN, not SEARCH USING INDEX) and
# every read and write slowed down as a collection grew. `->'_id'` extracts the same JSON value and
# matches the index.
# On PostgreSQL the same kind of mismatch: a find by _id is pushed down as `_jsonb->$1 @> $2` (the key
# a parameter, the test a containment), while the unique index is a btree on `_jsonb->'_id'`, which
# serves `=` only: EXPLAIN showed a Seq Scan for `{_id: "x"}` at 5,000 documents. For `_id` (never an
# array, so containment and equality agree) the patch emits `_jsonb->'_id' = $n`, the very expression
# FerretDB's own UPDATE ... WHERE uses; FerretDB re-checks every fetched document in Go either way.
# Secondary indexes have the same mismatch: an equality such as `{status: 'pending'}` is pushed down as
# `_jsonb->'status' @> '"pending"'` (containment, so that a field holding an array matches one of its
# elements, as in MongoDB), but createIndexes builds btree expression indexes on `_jsonb->'status'`,
# which cannot serve `@>`: every loop query was a Seq Scan (230-285 ms at 100,000 transactions).
# Rewriting the filter to `=` would lose the array-element semantics, so the patch keeps the query and
# adds the index that serves it: for an index whose leading key is a top-level field other than _id,
# createIndexes also creates `USING gin ((_jsonb->'field') jsonb_path_ops)` (jsonb_path_ops supports
# `@>` only, and is smaller than the default GIN opclass). Only the leading key, as MongoDB uses a
# compound index only through its prefix; indexes sharing a leading key share one GIN index (named by a
# hash of table and field, `CREATE INDEX IF NOT EXISTS`), which dropIndexes drops with the last of them;
# dropping the collection drops the table and with it every index. Every createIndexes also ensures the
# GIN indexes of the collection's existing indexes (FerretDB's handler passes only new ones on, but calls
# the backend anyway), so a store created before this patch gains them when the switch next starts (its
# ensureIndexes runs at connect). Dotted keys are skipped (they are pushed down
# as `#>` paths, another expression).
# The build uses a patched copy of the module (Go refuses overlays of files in the module cache)
# through a `replace` in a copy of go.mod; infra/ferretdb itself is untouched.
# Conditional updates are made atomic on PostgreSQL: stock FerretDB runs an update as a read, a filter
# and the update operators in Go, then `UPDATE … SET _jsonb = $1 WHERE _jsonb->'_id' = $2`, so two
# concurrent `updateOne({_id, _rev: n}, …)` could both match and both write (the store therefore kept
# a revision per write, 4 extra commands per payout). The patch adds `AND _jsonb = $3`, the document as
# it was read: PostgreSQL re-checks that condition on the newest row version after waiting for a
# concurrent writer's lock (READ COMMITTED), so of two writers of the same version one updates a row,
# the other none. Like MongoDB on a write conflict, the loser then reads the document again and, if it
# still matches the filter, applies the update to it again (its `_rev` condition no longer matches, so a
# compare-and-set reports no match, as on MongoDB). `buildInfo` says so in
# `ferretdbFeatures.atomicUpdates` (true with the PostgreSQL backend only: SQLite keeps the stock write),
# which the store reads at connect (shared/src/adapters/mongo/README.md).
# A single-document insert or update runs as its one statement, not inside BEGIN … COMMIT: PostgreSQL
# makes one statement atomic by itself, and the transaction cost two more round trips per write
# (FerretDB's pgx and PostgreSQL, on every store write of the switch). Several documents (several
# statements) keep their transaction.
# Leak tracking is left to debug builds: FerretDB 1.24 registers every document iterator, query
# iterator and pool it creates in a pprof profile (a stack trace each, through runtime.Callers) and
# gives it a finalizer that panics the server if it is collected without being closed. Its own debug
# build (`ferretdb_debug` tag) is where that belongs; in this one it was 8 % of FerretDB's CPU under the
# benchmark (pprof, `-debug-addr`), every object also surviving one more GC cycle for its finalizer.
# Documents are decoded with github.com/goccy/go-json instead of encoding/json: FerretDB reads every
# document it updates, and decoding the stored JSON (its `sjson` format: the document beside its type
# schema, about 4.7 KB for a payout) took a third of its CPU under the benchmark. Only the decoders
# change (json.NewDecoder in the sjson package); encoding stays on encoding/json, as goccy's encoder
# reaches into runtime internals that have crashed on recent Go releases (goccy/go-json#519).
# FerretDB's own sjson tests pass with it, except the ones comparing the text of error messages for
# truncated input. Measured with `node test/bench/store-cycles.mjs` (insert, find, two
# compare-and-set updates of a payout-sized document, 16 at a time): with this and the leak tracking
# off, FerretDB's CPU per cycle fell from 2.3 to 1.8 ms; with FERRETDB_GOGC at 2000 (infra/lib.sh),
# from 2.5 to 1.7 ms (four alternating runs each, 2026-11-25).
# Range conditions on strings are pushed down to PostgreSQL: stock FerretDB pushes down only `$eq` and
# `$ne`, so the switch's loop queries (`{_unannounced: true, updatedAt: {$lte: t}}`, `{_due: true,
# nextCheckAt: {$lte: t}}`, the notifier's `nextAttemptAt: {$lte: t}`) fetched, decoded and dropped
# every document matching their equality: every operation in flight, at every poll (under the
# benchmark the outbox relay's poll alone was a tenth of PostgreSQL's statement time, and a quarter of
# the documents FerretDB decoded). For `$lt`, `$lte`, `$gt`, `$gte` with a string operand on a top-level
# field the patch adds `(jsonb_typeof(f) <> 'string' OR (f as text) COLLATE "C" <op> $n)`. It only ever
# narrows to a superset of MongoDB's answer, since FerretDB still checks every fetched document in Go:
# a string is compared byte by byte (collation "C" is what MongoDB's binary comparison of UTF-8 is,
# whatever the database's collation), and anything that is not a string (an array whose elements may
# match, a number, null) is let through; a missing field matches no range condition on either side.
# The btree of a non-unique index whose leading field has a GIN index (above) is created empty, as
# `CREATE INDEX … WHERE false`: FerretDB's SQL never uses it (equalities are containment tests, served
# by the GIN index; ranges compare the field as text; sorting is done in Go), yet PostgreSQL updated
# it at every write (an update changes `_jsonb`, so none is a HOT update): a stored transaction has four
# of them. The index still exists under its name, so listIndexes, dropIndexes and FerretDB's metadata
# see no change; only PostgreSQL stops maintaining it. Unique indexes keep their btree, which is what
# enforces them. Measured with test/bench/store-cycles.mjs: PostgreSQL's CPU per cycle 1.42 → 1.26 ms.
# Indexes created before this patch keep their entries (REINDEX does not change a predicate: drop and
# create the index again to shed them).
# A conditional update compares the row's version, not its whole document: the atomic-update patch
# wrote `AND _jsonb = $3` with the document as read, so every compare-and-set marshalled the old
# document again in Go (about 4.7 KB for a payout, sjson), sent it to PostgreSQL, which parsed it as
# jsonb and compared it with the stored one (detoasted and decompressed). PostgreSQL already keeps a
# version of every row: `xmin`, the id of the transaction that wrote that row version, new at every
# UPDATE. Queries now also select `xmin::text`, each document read remembers it, and the update is
# `AND xmin::text = $3`: PostgreSQL re-checks it on the newest row version after waiting for a
# concurrent writer's lock, exactly as it did the document, so the loser of two writers of one version
# updates no row and reads again, as before. A document with no row version (read from a capped
# collection, whose query selects the record id instead) keeps the document comparison. A false match would need the row rewritten by a transaction with the
# same id between the read and the write, i.e. 4 billion transactions later (xid wraparound); a freeze
# in between only makes a spurious mismatch, which the retry reads again. Measured with
# test/bench/store-cycles.mjs (2026-11-27, three alternating runs each): PostgreSQL's CPU per cycle
# 1.33–1.38 → 1.18–1.22 ms.
FERRETDB_PATCH="sqlite-id-index-1 pg-id-index-1 pg-gin-index-2 pg-atomic-update-1 pg-single-statement-1 no-leak-tracking-1 sjson-goccy-decode-1 pg-range-pushdown-1 pg-empty-btree-1 pg-xmin-cas-1"
ferretdb_patched_modfile() {
  local dir work="$CACHE/ferretdb-patched" file=internal/backends/sqlite/metadata/metadata.go
  local pgq=internal/backends/postgresql/query.go
  dir="$(cd "$INFRA_DIR/ferretdb" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go mod download -json github.com/FerretDB/FerretDB | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [ -f "$dir/$file" ] || { echo "FerretDB module not found in the module cache" >&2; return 1; }
  rm -rf "$work" && mkdir -p "$work" && cp -R "$dir" "$work/FerretDB" && chmod -R u+w "$work/FerretDB"
  sed -i "s|IDColumn = DefaultColumn + \"->'\$._id'\"|IDColumn = DefaultColumn + \"->'_id'\"|" "$work/FerretDB/$file"
  grep -q "IDColumn = DefaultColumn + \"->'_id'\"" "$work/FerretDB/$file" || { echo "the FerretDB source changed: patch not applied" >&2; return 1; }
  # In filterEqual, before the string/ObjectID/time case builds its containment test.
  local anchor='		// don'"'"'t change the default eq query
		filter = fmt.Sprintf(sql, metadata.DefaultColumn, operator, p.Next(), p.Next())
		args = append(args, k, string(must.NotFail(sjson.MarshalSingleValue(v))))'
  ANCHOR="$anchor" perl -0pi -e '
    my $a = $ENV{ANCHOR};
    my $patch = "\t\tif k == \"_id\" && operator == \"->\" { // patched: match the _id index (infra/fetch.sh)\n" .
      "\t\t\tfilter = fmt.Sprintf(`%s = %s`, metadata.IDColumn, p.Next())\n" .
      "\t\t\targs = append(args, string(must.NotFail(sjson.MarshalSingleValue(v))))\n" .
      "\t\t\treturn\n\t\t}\n\n";
    s/\Q$a\E/$patch$a/ or die "anchor not found\n";
  ' "$work/FerretDB/$pgq" || { echo "the FerretDB source changed: PostgreSQL _id patch not applied" >&2; return 1; }
  ferretdb_patch_gin "$work/FerretDB/internal/backends/postgresql/metadata" || { echo "the FerretDB source changed: PostgreSQL GIN index patch not applied" >&2; return 1; }
  ferretdb_patch_atomic_update "$work/FerretDB/internal" || { echo "the FerretDB source changed: atomic update patch not applied" >&2; return 1; }
  ferretdb_patch_single_statement "$work/FerretDB/internal/backends/postgresql" || { echo "the FerretDB source changed: single-statement patch not applied" >&2; return 1; }
  ferretdb_patch_no_leak_tracking "$work/FerretDB/internal/util/resource/resource.go" || { echo "the FerretDB source changed: leak-tracking patch not applied" >&2; return 1; }
  ferretdb_patch_sjson_decoder "$work/FerretDB/internal/handler/sjson" || { echo "the FerretDB source changed: sjson decoder patch not applied" >&2; return 1; }
  ferretdb_patch_range_pushdown "$work/FerretDB/$pgq" || { echo "the FerretDB source changed: range pushdown patch not applied" >&2; return 1; }
  ferretdb_patch_empty_btree "$work/FerretDB/internal/backends/postgresql/metadata/registry.go" || { echo "the FerretDB source changed: empty btree patch not applied" >&2; return 1; }
  ferretdb_patch_xmin_cas "$work/FerretDB/internal" || { echo "the FerretDB source changed: row-version compare-and-set patch not applied" >&2; return 1; }
  cp "$INFRA_DIR/ferretdb/go.mod" "$work/go.mod" && cp "$INFRA_DIR/ferretdb/go.sum" "$work/go.sum"
  printf '\nreplace github.com/FerretDB/FerretDB => %s\n' "$work/FerretDB" >>"$work/go.mod"
  echo "$work/go.mod"
}

# The GIN part of the patch (see above): hooks in registry.go, the helpers in a file of their own.
ferretdb_patch_gin() {
  local meta="$1"
  perl -0pi -e '
    my $n = 0;
    $n += s/(\tcreated := make\(\[\]string, 0, len\(indexes\)\)\n)/\t\/\/ patched (infra\/fetch.sh): the handler passes only new indexes; existing ones get their GIN index here\n\tfor _, index := range c.Indexes {\n\t\tif err = ginEnsure(ctx, p, dbName, c.TableName, index); err != nil {\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n\t}\n\n$1/;
    $n += s/(\t\tcreated = append\(created, index\.Name\)\n\t\tc\.Indexes = append\(c\.Indexes, index\)\n)/\t\tif err = ginEnsure(ctx, p, dbName, c.TableName, index); err != nil { \/\/ patched (infra\/fetch.sh)\n\t\t\t_, _ = p.Exec(ctx, "DROP INDEX " + pgx.Identifier{dbName, index.PgIndex}.Sanitize())\n\t\t\t_ = r.indexesDrop(ctx, p, dbName, collectionName, created)\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n\n$1/;
    $n += s/(\t\tc\.Indexes = slices\.Delete\(c\.Indexes, i, i\+1\)\n)/\t\tdropped := c.Indexes[i] \/\/ patched (infra\/fetch.sh)\n$1\n\t\tif err := ginDropUnused(ctx, p, dbName, c.TableName, dropped, c.Indexes); err != nil {\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n/;
    $n == 3 or die "anchors found: $n of 3\n";
  ' "$meta/registry.go" || return 1
  [ ! -e "$meta/gin_patch.go" ] || return 1
  cat >"$meta/gin_patch.go" <<'GO'
package metadata

// Added by the switch's infra/fetch.sh: GIN jsonb_path_ops indexes that serve the pushed-down
// containment equalities (`_jsonb->'f' @> value`) the btree expression indexes cannot.

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/FerretDB/FerretDB/internal/util/must"
)

// ginField returns the field the index gets a GIN index for: its leading key, if a top-level field other than _id.
func ginField(index IndexInfo) string {
	if len(index.Key) == 0 {
		return ""
	}

	f := index.Key[0].Field
	if f == "_id" || f == "" || strings.Contains(f, ".") {
		return ""
	}

	return f
}

// ginIndexName is shared by every index of the table with the same leading field.
func ginIndexName(tableName, field string) string {
	h := fnv.New32a()
	must.NotFail(h.Write([]byte(tableName + "\x00" + field)))

	if len(tableName) > 40 {
		tableName = tableName[:40]
	}

	return fmt.Sprintf("%s_%08x_gin", tableName, h.Sum32())
}

func ginEnsure(ctx context.Context, p *pgxpool.Pool, dbName, tableName string, index IndexInfo) error {
	f := ginField(index)
	if f == "" {
		return nil
	}

	q := fmt.Sprintf(
		`CREATE INDEX IF NOT EXISTS %s ON %s USING gin ((%s->%s) jsonb_path_ops)`,
		pgx.Identifier{ginIndexName(tableName, f)}.Sanitize(),
		pgx.Identifier{dbName, tableName}.Sanitize(),
		DefaultColumn,
		quoteString(f),
	)
	_, err := p.Exec(ctx, q)

	return err
}

// ginDropUnused drops the GIN index of a dropped index unless another index still shares it.
func ginDropUnused(ctx context.Context, p *pgxpool.Pool, dbName, tableName string, dropped IndexInfo, remaining []IndexInfo) error {
	f := ginField(dropped)
	if f == "" {
		return nil
	}

	for _, index := range remaining {
		if ginField(index) == f {
			return nil
		}
	}

	_, err := p.Exec(ctx, "DROP INDEX IF EXISTS "+pgx.Identifier{dbName, ginIndexName(tableName, f)}.Sanitize())

	return err
}
GO
}

# The atomic-update part of the patch (see FERRETDB_PATCH): hooks by perl, the retry in a file of its own.
ferretdb_patch_atomic_update() {
  local src="$1"
  perl -0pi -e 's/(type UpdateAllParams struct \{\n\tDocs \[\]\*types\.Document\n)/$1\tOriginals []*types.Document \/\/ patched (infra\/fetch.sh): write Docs[i] only if the row still holds Originals[i]\n/ or die' "$src/backends/collection.go" || return 1
  perl -0pi -e '
    /(func \(c \*collection\) UpdateAll\(.*?\n\}\n)/s or die "UpdateAll";
    my ($at, $f) = ($-[1], $1);
    my $len = length $f;
    $f =~ s/(\tmetadata\.IDColumn,\n\t\)\n)/$1\tqIfUnchanged := q + " AND " + metadata.DefaultColumn + " = \$3" \/\/ patched (infra\/fetch.sh)\n/ or die "q";
    $f =~ s/for _, doc := range params\.Docs \{/for i, doc := range params.Docs {/ or die "loop";
    $f =~ s/(\t\t\tif tag, err = tx\.Exec\(ctx, q, b, arg\); err != nil \{)/\t\t\tif i < len(params.Originals) && params.Originals[i] != nil { \/\/ patched (infra\/fetch.sh)\n\t\t\t\tvar was []byte\n\t\t\t\tif was, err = sjson.Marshal(params.Originals[i]); err != nil {\n\t\t\t\t\treturn lazyerrors.Error(err)\n\t\t\t\t}\n\t\t\t\ttag, err = tx.Exec(ctx, qIfUnchanged, b, arg, was)\n\t\t\t} else {\n\t\t\t\ttag, err = tx.Exec(ctx, q, b, arg)\n\t\t\t}\n\t\t\tif err != nil {/ or die "exec";
    substr($_, $at, $len) = $f;
  ' "$src/backends/postgresql/collection.go" || return 1
  perl -0pi -e '
    my $n = 0;
    $n += s/(\t\tvar upsert, modified bool\n)/$1\t\tvar original *types.Document \/\/ patched (infra\/fetch.sh)\n/;
    $n += s/(\t\t\tresult\.Matched\.Count\+\+\n)/$1\t\t\toriginal = doc.DeepCopy() \/\/ patched (infra\/fetch.sh)\n/;
    $n += s/\t\t\t_, err := c\.UpdateAll\(ctx, &backends\.UpdateAllParams\{Docs: \[\]\*types\.Document\{doc\}\}\)\n\t\t\tif err != nil \{\n\t\t\t\treturn nil, lazyerrors\.Error\(err\)\n\t\t\t\}\n/\t\t\t\/\/ patched (infra\/fetch.sh): written only if unchanged since read, else read again (update_atomic_patch.go)\n\t\t\tvar matched bool\n\t\t\tif doc, original, matched, modified, err = updateIfUnchanged(ctx, c, cmd, original, doc, param); err != nil {\n\t\t\t\treturn nil, lazyerrors.Error(err)\n\t\t\t}\n\t\t\tif !matched {\n\t\t\t\tresult.Matched.Count--\n\t\t\t\tif isFindAndModify {\n\t\t\t\t\tresult.Matched.Doc = nil\n\t\t\t\t}\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tif isFindAndModify {\n\t\t\t\tresult.Matched.Doc = original\n\t\t\t}\n\t\t\tif !modified {\n\t\t\t\tcontinue\n\t\t\t}\n/;
    $n == 3 or die "update.go: $n of 3\n";
  ' "$src/handler/common/update.go" || return 1
  perl -0pi -e 's/(\t\t\t\t"aggregationStages", aggregationStages,\n)/$1\t\t\t\t"atomicUpdates", AtomicUpdates, \/\/ patched (infra\/fetch.sh)\n/ or die' "$src/handler/msg_buildinfo.go" || return 1
  perl -0pi -e 's/(\t\th, err := handler\.New\(handlerOpts\)\n)/\t\thandler.AtomicUpdates = true \/\/ patched (infra\/fetch.sh): conditional updates are atomic on this backend\n\n$1/ or die' "$src/handler/registry/postgresql.go" || return 1
  [ ! -e "$src/handler/atomic_patch.go" ] && [ ! -e "$src/handler/common/update_atomic_patch.go" ] || return 1
  cat >"$src/handler/atomic_patch.go" <<'GO'
package handler

// AtomicUpdates is reported by buildInfo (ferretdbFeatures.atomicUpdates): the backend writes an
// updated document only if its row still holds the document as read (patched in by infra/fetch.sh).
var AtomicUpdates bool
GO
  cat >"$src/handler/common/update_atomic_patch.go" <<'GO'
package common

import (
	"context"
	"errors"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// updateIfUnchanged writes updated only if the stored row still holds original (the document as read;
// the PostgreSQL backend checks it in the UPDATE's WHERE). When the row changed in between, the document
// is read again and, if it still matches the filter, the update is applied to it again, as MongoDB does
// on a write conflict. It returns the written document, its state before, whether it still matched,
// and whether the update changed it.
func updateIfUnchanged(ctx context.Context, c backends.Collection, cmd string, original, updated *types.Document, param *Update) (*types.Document, *types.Document, bool, bool, error) {
	for attempt := 1; ; attempt++ {
		res, err := c.UpdateAll(ctx, &backends.UpdateAllParams{
			Docs:      []*types.Document{updated},
			Originals: []*types.Document{original},
		})
		if err != nil {
			return nil, nil, false, false, lazyerrors.Error(err)
		}

		if res.Updated > 0 {
			return updated, original, true, true, nil
		}

		if attempt >= 1000 {
			return nil, nil, false, false, lazyerrors.New("the document kept changing while it was updated")
		}

		current, err := readByID(ctx, c, must.NotFail(original.Get("_id")))
		if err != nil {
			return nil, nil, false, false, lazyerrors.Error(err)
		}

		if current == nil {
			return nil, nil, false, false, nil
		}

		matches, err := FilterDocument(current, param.Filter)
		if err != nil {
			return nil, nil, false, false, lazyerrors.Error(err)
		}

		if !matches {
			return nil, nil, false, false, nil
		}

		original = current.DeepCopy()

		var modified bool
		if !param.HasUpdateOperators {
			modified, err = processReplacementDoc(cmd, current, param.Update)
		} else {
			modified, err = processUpdateOperator(cmd, current, param.Update, false)
		}

		if err != nil {
			return nil, nil, false, false, lazyerrors.Error(err)
		}

		if !modified {
			return current, original, true, false, nil
		}

		if err = current.ValidateData(); err != nil {
			return nil, nil, false, false, lazyerrors.Error(err)
		}

		updated = current
	}
}

// readByID reads the document with this _id, or nil.
func readByID(ctx context.Context, c backends.Collection, id any) (*types.Document, error) {
	filter := must.NotFail(types.NewDocument("_id", id))

	res, err := c.Query(ctx, &backends.QueryParams{Filter: filter})
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	defer res.Iter.Close()

	for {
		_, doc, err := res.Iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			return nil, nil
		}

		if err != nil {
			return nil, lazyerrors.Error(err)
		}

		// the pushdown may return more than the equality: check it in Go, as FerretDB does
		if ok, err := FilterDocument(doc, filter); err != nil {
			return nil, lazyerrors.Error(err)
		} else if ok {
			return doc, nil
		}
	}
}
GO
}

# The row-version part of the patch (see FERRETDB_PATCH); runs after the atomic-update part.
ferretdb_patch_xmin_cas() {
  local src="$1"
  perl -0pi -e 's/(\trecordID int64\n)/$1\trowVersion string \/\/ patched (infra\/fetch.sh): PostgreSQL\x27s xmin of the row it was read from\n/ or die "Document"' "$src/types/document.go" || return 1
  perl -0pi -e 's/(\t\t\trecordID: value\.recordID,\n)/$1\t\t\trowVersion: value.rowVersion, \/\/ patched (infra\/fetch.sh)\n/ or die "deepCopy"' "$src/types/types.go" || return 1
  [ ! -e "$src/types/row_version_patch.go" ] || return 1
  cat >"$src/types/row_version_patch.go" <<'GO'
package types

// RowVersion is the version of the stored row this document was read from (PostgreSQL's xmin), or ""
// when unknown; conditional updates compare it (patched in by infra/fetch.sh).
func (d *Document) RowVersion() string {
	return d.rowVersion
}

// SetRowVersion sets the document's RowVersion.
func (d *Document) SetRowVersion(v string) {
	d.rowVersion = v
}
GO
  perl -0pi -e 's/(\treturn fmt\.Sprintf\(\n\t\t`SELECT %s %s) (FROM %s`,\n\t\tparams\.Comment,\n\t\tmetadata\.DefaultColumn,\n)/$1, xmin::text AS _ferretdb_xmin $2/ or die "select"' "$src/backends/postgresql/query.go" || return 1
  perl -0pi -e '
    my $n = 0;
    $n += s/(\tvar dest \[\]any\n)/$1\tvar rowVersion string \/\/ patched (infra\/fetch.sh)\n/;
    $n += s/(\tcase slices\.Equal\(columns, \[\]string\{metadata\.DefaultColumn\}\):\n)/\tcase slices.Equal(columns, []string{metadata.DefaultColumn, "_ferretdb_xmin"}): \/\/ patched (infra\/fetch.sh)\n\t\tdest = []any{&b, &rowVersion}\n$1/;
    $n += s/(\tdoc\.SetRecordID\(recordID\)\n)/$1\tdoc.SetRowVersion(rowVersion) \/\/ patched (infra\/fetch.sh)\n/;
    $n == 3 or die "query_iterator.go: $n of 3\n";
  ' "$src/backends/postgresql/query_iterator.go" || return 1
  perl -0pi -e '
    my $n = 0;
    $n += s/(\tqIfUnchanged := q \+ " AND " \+ metadata\.DefaultColumn \+ " = \$3" \/\/ patched \(infra\/fetch\.sh\)\n)/$1\tqIfSameRow := q + " AND xmin::text = \$3" \/\/ patched (infra\/fetch.sh): the row version as read\n/;
    $n += s/(\t\t\tif i < len\(params\.Originals\) && params\.Originals\[i\] != nil \{ \/\/ patched \(infra\/fetch\.sh\)\n)/\t\t\tif i < len(params.Originals) && params.Originals[i] != nil && params.Originals[i].RowVersion() != "" { \/\/ patched (infra\/fetch.sh)\n\t\t\t\ttag, err = tx.Exec(ctx, qIfSameRow, b, arg, params.Originals[i].RowVersion())\n\t\t\t} else if i < len(params.Originals) \&\& params.Originals[i] != nil { \/\/ patched (infra\/fetch.sh)\n/;
    $n == 2 or die "collection.go: $n of 2\n";
  ' "$src/backends/postgresql/collection.go" || return 1
}

# The single-statement part of the patch (see FERRETDB_PATCH).
ferretdb_patch_single_statement() {
  local pg="$1"
  perl -0pi -e '
    my $n = 0;
    $n += s/err = pool\.InTransaction\(ctx, p, func\(tx pgx\.Tx\) error \{\n\t\tbatchSize := c\.r\.BatchSize/err = inTransactionUnlessSingle(ctx, p, len(params.Docs) <= max(c.r.BatchSize, 1), func(tx pgx.Tx) error { \/\/ patched (infra\/fetch.sh)\n\t\tbatchSize := c.r.BatchSize/;
    $n += s/err = pool\.InTransaction\(ctx, p, func\(tx pgx\.Tx\) error \{\n\t\tfor i, doc := range params\.Docs \{/err = inTransactionUnlessSingle(ctx, p, len(params.Docs) == 1, func(tx pgx.Tx) error { \/\/ patched (infra\/fetch.sh)\n\t\tfor i, doc := range params.Docs {/;
    # its last use of the pool package went into single_statement_patch.go
    $n += s/\t("github\.com\/FerretDB\/FerretDB\/internal\/backends\/postgresql\/metadata\/pool")\n/\t_ $1\n/;
    $n == 3 or die "collection.go: $n of 3\n";
  ' "$pg/collection.go" || return 1
  [ ! -e "$pg/single_statement_patch.go" ] || return 1
  cat >"$pg/single_statement_patch.go" <<'GO'
package postgresql

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/FerretDB/FerretDB/internal/backends/postgresql/metadata/pool"
)

// poolExec runs Exec on the pool, outside any transaction: the closures given to
// inTransactionUnlessSingle use nothing of their pgx.Tx but Exec (patched in by infra/fetch.sh).
type poolExec struct {
	pgx.Tx
	p *pgxpool.Pool
}

func (e poolExec) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return e.p.Exec(ctx, sql, args...)
}

// inTransactionUnlessSingle runs f in a transaction, unless f runs a single statement: PostgreSQL
// makes one statement atomic by itself, and BEGIN and COMMIT would cost two more round trips.
func inTransactionUnlessSingle(ctx context.Context, p *pgxpool.Pool, single bool, f func(tx pgx.Tx) error) error {
	if single {
		return f(poolExec{p: p})
	}

	return pool.InTransaction(ctx, p, f)
}
GO
}

# The leak-tracking part of the patch (see FERRETDB_PATCH): Track and Untrack return at once unless
# this is FerretDB's debug build.
ferretdb_patch_no_leak_tracking() {
  perl -0pi -e '
    my $n = 0;
    $n += s/(\nfunc (?:Track|Untrack)\(obj any, token \*Token\) \{\n)/$1\tif !debugbuild.Enabled { \/\/ patched (infra\/fetch.sh)\n\t\treturn\n\t}\n\n/g;
    $n == 2 or die "resource.go: $n of 2\n";
  ' "$1"
}

# The decoder part of the patch (see FERRETDB_PATCH): every json.NewDecoder of the sjson package
# becomes goccy's, which has the same API.
ferretdb_patch_sjson_decoder() {
  local f n=0
  for f in "$1"/*.go; do
    case "$f" in *_test.go) continue ;; esac
    grep -q 'json\.NewDecoder(' "$f" || continue
    perl -0pi -e '
      s/\bjson\.NewDecoder\(/gojson.NewDecoder(/g;
      s/\*json\.Decoder\b/*gojson.Decoder/g;
      s/(\n\t"encoding\/json"\n)/$1\tgojson "github.com\/goccy\/go-json" \/\/ patched (infra\/fetch.sh)\n/ or die "no encoding\/json import\n";
    ' "$f" || return 1
    n=$((n + 1))
  done
  [ "$n" -ge 10 ] || { echo "sjson: $n files with decoders, expected at least 10" >&2; return 1; }
}

# The range part of the patch (see FERRETDB_PATCH): a case before prepareWhereClause's "$gt and $lt" TODO.
ferretdb_patch_range_pushdown() {
  perl -0pi -e '
    my $patch = "\t\t\t\tcase \"\$lt\", \"\$lte\", \"\$gt\", \"\$gte\": // patched (infra/fetch.sh): a string on a top-level field\n" .
      "\t\t\t\t\ts, ok := v.(string)\n" .
      "\t\t\t\t\tif !ok || keyOperator != \"->\" {\n\t\t\t\t\t\tcontinue\n\t\t\t\t\t}\n\n" .
      "\t\t\t\t\top := map[string]string{\"\$lt\": \"<\", \"\$lte\": \"<=\", \"\$gt\": \">\", \"\$gte\": \">=\"}[k]\n" .
      "\t\t\t\t\tkeyArg, valueArg := p.Next(), p.Next()\n" .
      "\t\t\t\t\tfilters = append(filters, fmt.Sprintf(\n" .
      "\t\t\t\t\t\t`(jsonb_typeof(%[1]s->%[2]s) <> \x27string\x27 OR (%[1]s->>%[2]s) COLLATE \"C\" %[3]s %[4]s)`,\n" .
      "\t\t\t\t\t\tmetadata.DefaultColumn, keyArg, op, valueArg,\n\t\t\t\t\t))\n" .
      "\t\t\t\t\targs = append(args, rootKey, s)\n\n";
    s/(\t\t\t\tdefault:\n\t\t\t\t\t\/\/ \$gt and \$lt\n)/$patch$1/ or die "anchor not found\n";
  ' "$1"
}

# The empty-btree part of the patch (see FERRETDB_PATCH), in indexesCreate once its statement is built.
ferretdb_patch_empty_btree() {
  perl -0pi -e '
    my $patch = "\t\tif !index.Unique && ginField(index) != \"\" { // patched (infra/fetch.sh): FerretDB\x27s SQL never uses it\n" .
      "\t\t\tq += \" WHERE false\"\n\t\t}\n\n";
    s/(\t\t\tstrings\.Join\(columns, ", "\),\n\t\t\)\n\n)(\t\tif _, err = p\.Exec\(ctx, q\); err != nil \{)/$1$patch$2/ or die "anchor not found\n";
  ' "$1"
}

fetch_ferretdb() {
  local stamp="$FERRETDB_BIN.stamp" want
  want="$(go env GOVERSION) $(inputs_hash "$INFRA_DIR/ferretdb/main.go" "$INFRA_DIR/ferretdb/go.mod" "$INFRA_DIR/ferretdb/go.sum") $FERRETDB_PATCH"
  if [ -x "$FERRETDB_BIN" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    log "ferretdb: cached"
    return
  fi
  log "ferretdb: building (cold Go cache: ~2 min on 2 cores)"
  mkdir -p "$(dirname "$FERRETDB_BIN")"
  local modfile
  modfile="$(ferretdb_patched_modfile)" || die "could not prepare the FerretDB _id index patch"
  # -mod=readonly: use the committed go.sum, never rewrite go.mod; GOTOOLCHAIN=local: no toolchain download.
  (cd "$INFRA_DIR/ferretdb" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=readonly \
    go build -trimpath -buildvcs=false -modfile "$modfile" -o "$FERRETDB_BIN.tmp" .)
  mv -f "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
  echo "$want" >"$stamp"
  log "ferretdb: built ${FERRETDB_BIN#"$REPO"/}"
}

# PostgreSQL (FerretDB's default backend) comes from Debian's packages, not from .cache: install it
# when its binaries are missing (as root; any other user is told the command). The package also
# creates the `postgres` user the cluster runs as under root.
ensure_postgresql() {
  [ "$FERRETDB_BACKEND" = postgresql ] || return 0
  if [ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/initdb" ] && id "$PG_USER" >/dev/null 2>&1; then
    log "postgresql: $PG_BIN"
    return
  fi
  command -v apt-get >/dev/null || die "PostgreSQL 15 is not in $PG_BIN and there is no apt-get: install it, or set PG_BIN (or FERRETDB_BACKEND=sqlite)"
  [ "$(id -u)" = 0 ] || die "PostgreSQL 15 is not in $PG_BIN: install it with \`sudo apt-get install -y postgresql-15\` (or set PG_BIN, or FERRETDB_BACKEND=sqlite)"
  log "postgresql: not in $PG_BIN; apt-get install postgresql-15"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends postgresql-15 >&2 ||
    { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends postgresql-15 >&2; } ||
    die "apt-get install postgresql-15 failed"
  [ -x "$PG_BIN/postgres" ] || die "postgresql-15 installed, but $PG_BIN/postgres is missing (set PG_BIN)"
}

# The Go build is CPU-bound and the Maven steps are network-bound: overlap them.
go_log="$CACHE/.fetch-ferretdb.log"
fetch_ferretdb >"$go_log" 2>&1 &
go_pid=$!
# If a Maven step fails (set -e), still wait for the Go build so nothing is left behind.
trap 'wait "$go_pid" 2>/dev/null; cat "$go_log" >&2 2>/dev/null; rm -f "$go_log"' EXIT
ensure_postgresql
fetch_kafka
fetch_apicurio
go_rc=0
wait "$go_pid" || go_rc=$?
trap - EXIT
cat "$go_log" >&2
rm -f "$go_log"
[ "$go_rc" = 0 ] || die "ferretdb build failed"
log "fetch done"
