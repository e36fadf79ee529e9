import PostgresNIO

/// The PostgreSQL schema, by version.
///
/// Versions are numbered with the SQLite index's (docs/INDEX.md), whose version 16 the first
/// one matches; 17 is PostgreSQL's alone. A newer database than the build is refused.
enum ClusterSchema {
    /// Each version's statements, applied in one transaction.
    static let migrations: [(version: Int, statements: [String])] = [
        (
            16,
            [
                """
                CREATE TABLE scans (
                    id bigserial PRIMARY KEY,
                    started_at timestamptz NOT NULL DEFAULT now(),
                    finished_at timestamptz,
                    state text NOT NULL DEFAULT 'running',
                    found bigint NOT NULL DEFAULT 0,
                    queued bigint NOT NULL DEFAULT 0,
                    missing bigint NOT NULL DEFAULT 0)
                """,
                // One row a file the walks found; `record` is what a worker read of it (the
                // index's facts, as JSON), null until it is read. `generation` grows whenever a walk
                // finds the file changed, so a worker that read an older one cannot record it;
                // `read_generation` is the one `record` is of.
                """
                CREATE TABLE files (
                    id bigserial PRIMARY KEY,
                    path bytea NOT NULL UNIQUE,
                    album bytea NOT NULL,
                    root bytea NOT NULL,
                    device bigint NOT NULL,
                    inode bigint NOT NULL,
                    size bigint NOT NULL,
                    mtime_ns bigint NOT NULL,
                    sidecar_name bytea,
                    sidecar_size bigint,
                    sidecar_mtime_ns bigint,
                    generation bigint NOT NULL DEFAULT 1,
                    read_generation bigint,
                    missing_since timestamptz,
                    status text CHECK (status IN ('ok', 'failed', 'unsupported')),
                    record jsonb,
                    read_at timestamptz,
                    read_by text)
                """,
                "CREATE INDEX files_root ON files (root)",
                // The object keys each file's renditions are stored under (what the orphan sweep keeps).
                """
                CREATE TABLE renditions (
                    file_id bigint NOT NULL REFERENCES files ON DELETE CASCADE,
                    spec text NOT NULL,
                    object_key text NOT NULL,
                    PRIMARY KEY (file_id, spec))
                """,
                "CREATE INDEX renditions_object ON renditions (object_key)",
                // Work to do: one row a file to read, gone once it is recorded. A lease is a token
                // from `lease_tokens` and a deadline its holder's heartbeat moves on.
                """
                CREATE TABLE jobs (
                    file_id bigint PRIMARY KEY REFERENCES files ON DELETE CASCADE,
                    generation bigint NOT NULL,
                    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'leased', 'failed')),
                    attempts integer NOT NULL DEFAULT 0,
                    lease_token bigint,
                    worker text,
                    lease_until timestamptz,
                    not_before timestamptz NOT NULL DEFAULT now(),
                    reason text,
                    enqueued_at timestamptz NOT NULL DEFAULT now())
                """,
                "CREATE INDEX jobs_pending ON jobs (file_id) WHERE state = 'pending'",
                "CREATE INDEX jobs_leased ON jobs (lease_until) WHERE state = 'leased'",
                "CREATE SEQUENCE lease_tokens",
                """
                CREATE TABLE workers (
                    name text PRIMARY KEY,
                    host text NOT NULL,
                    pid integer NOT NULL,
                    started_at timestamptz NOT NULL DEFAULT now(),
                    seen_at timestamptz NOT NULL DEFAULT now(),
                    stopped_at timestamptz,
                    done bigint NOT NULL DEFAULT 0,
                    failed bigint NOT NULL DEFAULT 0,
                    lost bigint NOT NULL DEFAULT 0)
                """,
            ]
        ),
        (
            // Versions go on from SQLite's: the SQLite index's next one is the next number unused.
            17,
            [
                // The transaction that last changed each row, for a local file to be brought up
                // to date by what changed since (ClusterMirror).
                "ALTER TABLE files ADD COLUMN changed xid8 NOT NULL DEFAULT pg_current_xact_id()",
                "CREATE INDEX files_changed ON files (changed)",
                // A file found at a new path is looked for by its identity (ClusterScan: moves).
                "CREATE INDEX files_identity ON files (device, inode)",
                """
                CREATE FUNCTION files_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN NEW.changed := pg_current_xact_id(); RETURN NEW; END $$
                """,
                "CREATE TRIGGER files_changed BEFORE UPDATE ON files FOR EACH ROW EXECUTE FUNCTION files_changed()",
                // The cluster's id, and the last change of a row a prune removed: a local file
                // brought up to date before it may still hold the row, and is made again whole.
                """
                CREATE TABLE cluster (
                    id uuid NOT NULL DEFAULT gen_random_uuid(),
                    pruned_through xid8 NOT NULL DEFAULT '0',
                    one boolean PRIMARY KEY DEFAULT true CHECK (one))
                """,
                "INSERT INTO cluster DEFAULT VALUES",
            ]
        ),
    ]

    static var latest: Int { migrations.last?.version ?? 0 }

    /// Applies the versions the database lacks, one process at a time (an advisory lock).
    static func migrate(_ index: ClusterIndex) async throws(ClusterError) {
        let found = try await index.transaction("migrate the schema", answerWithin: ClusterIndex.workAnswer) {
            connection -> Int in
            try await connection.query("SELECT pg_advisory_xact_lock(7715011)", logger: index.logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS tessera_schema
                    (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """,
                logger: index.logger)
            var current = 0
            for try await version in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM tessera_schema", logger: index.logger
            ).decode(Int.self) {
                current = version
            }
            guard current <= latest else { return current }
            for (version, statements) in migrations where version > current {
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: index.logger)
                }
                try await connection.query(
                    "INSERT INTO tessera_schema (version) VALUES (\(version))", logger: index.logger)
            }
            return latest
        }
        guard found <= latest else {
            throw ClusterError(
                .newerSchema,
                "\(index.address) holds schema \(found), newer than this build's \(latest): upgrade Tessera")
        }
    }
}
